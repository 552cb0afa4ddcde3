/**
 * The host's markup as the browser half reads it.
 * @module @wishp3/dsh-sessions/client/official/markup
 */

/** A chat row: every element the conversation draws for one chat node carries its key. */
const CHAT_ROW = 'data-chat-anchor-key'

/** A sent session reference in a user's bubble; its text is the reference's label. */
const SENT_SESSION_CHIP = '[data-ref-chip="session"]'

/** The part of a chat row that shows its time on hover; its last child is the row's action bar. */
const TIME_HOVER_ROOT = '[data-time-hover-root]'

/** The composer's card, which holds the text area and the chips drawn under it. */
const COMPOSER_CARD = '[data-composer-card]'

/** A chip drawn under the composer's text area, with the draft occurrence it shows. */
const COMPOSER_CHIP = '[data-decoration="chip"][data-occurrence]'
const CHIP_OCCURRENCE = 'data-occurrence'

/** The scrolled conversation, and the composer's seat inside the conversation column. */
const CONVERSATION = '[data-conversation-scroll]'
const COMPOSER_SEAT = '[data-composer-seat]'

/** A row of the workspace browser's tree. */
const TREE_ITEM = '[role="treeitem"]'

/** What the workspace browser patch adds: the session id on each row, and a mark on the search results' tree. */
const SESSION_ROW = 'data-dsh-session-row'
const SEARCH_RESULTS = '[data-dsh-sessions-results]'

/** Where excerpts with matches are drawn: the composer's `@` menu, the sidebar's search results (not the sidebar's whole tree) and the related-sessions row. */
export const EXCERPT_ROOTS = `[role="listbox"], ${SEARCH_RESULTS}, [data-dsh-sessions-related]`

const rowSelector = (key: string) => `[${CHAT_ROW}="${CSS.escape(key)}"]`

/** The elements of one chat row; the page may hold hidden views of the same session with the same keys. */
export function chatRows(key: string): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(rowSelector(key))]
}

/** Every chat row's elements by key, read in one pass over the page (for work over many rows at once). */
export function chatRowsByKey(): Map<string, HTMLElement[]> {
  const rows = new Map<string, HTMLElement[]>()
  for (const element of document.querySelectorAll<HTMLElement>(`[${CHAT_ROW}]`)) {
    const key = element.getAttribute(CHAT_ROW)!
    const known = rows.get(key)
    if (known === undefined) rows.set(key, [element])
    else known.push(element)
  }
  return rows
}

/** The find button of the session header on screen (the page may keep other views' headers). */
export function shownFindButton(): HTMLElement | undefined {
  return [...document.querySelectorAll<HTMLElement>('[data-dsh-sessions-find-open]')].find(element => element.getClientRects().length > 0)
}

export function shownChatRow(key: string): HTMLElement | undefined {
  return chatRows(key).find(element => element.getClientRects().length > 0)
}

/** The sent session references shown in a row, whose text is each one's label. */
export function sentSessionChips(row: HTMLElement): HTMLElement[] {
  return [...row.querySelectorAll<HTMLElement>(SENT_SESSION_CHIP)]
}

/** A chat row's action bar, once the host has drawn its buttons in it. */
export function messageActionBar(row: HTMLElement): HTMLElement | undefined {
  const bar = row.querySelector<HTMLElement>(TIME_HOVER_ROOT)?.lastElementChild
  return bar instanceof HTMLElement && bar.querySelector('button') !== null ? bar : undefined
}

export function composerCardOf(element: Element): Element | null {
  return element.closest(COMPOSER_CARD)
}

/** The chips drawn under a composer's text area, each with the id of the draft occurrence it shows. */
export function composerChips(card: Element): { readonly element: Element; readonly occurrence: string | null }[] {
  return [...card.querySelectorAll(COMPOSER_CHIP)].map(element => ({ element, occurrence: element.getAttribute(CHIP_OCCURRENCE) }))
}

export function composerTextArea(): HTMLTextAreaElement | null {
  return document.querySelector<HTMLTextAreaElement>(`${COMPOSER_CARD} textarea`)
}

/** Whether an element is in the conversation and outside the composer's seat. */
export function inConversation(element: Element): boolean {
  return element.closest(CONVERSATION) != null && element.closest(COMPOSER_SEAT) == null
}

/** The rows of a tree of the workspace browser. */
export function treeRows(tree: HTMLElement): HTMLElement[] {
  return [...tree.querySelectorAll<HTMLElement>(TREE_ITEM)]
}

export function firstSearchResultRow(): HTMLElement | null {
  return document.querySelector<HTMLElement>(`${SEARCH_RESULTS} ${TREE_ITEM}`)
}

export function sessionRow(sessionId: string): HTMLElement | null {
  return document.querySelector<HTMLElement>(`[${SESSION_ROW}="${CSS.escape(sessionId)}"]`)
}

/** The nearest element carrying one of the plugin's marks, from an element up. */
export function closestMarked(element: Element, attribute: string): HTMLElement | null {
  return element.closest<HTMLElement>(`[${attribute}]`)
}

/** The first element inside one that carries one of the plugin's marks. */
export function markedWithin(element: Element, attribute: string): HTMLElement | null {
  return element.querySelector<HTMLElement>(`[${attribute}]`)
}
