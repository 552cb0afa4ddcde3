/**
 * What the patched workspace browser asks of its host page.
 * @module @wishp3/dsh-sessions/workspace-browser/contract
 */

/** One item appended to a session row's ⋯ menu. */
export interface RowMenuItem {
  readonly id: string
  readonly label: string
  readonly icon: JSX.Element
}

/** The row-menu module the patched bundle requires. */
export interface RowMenu {
  /** Items appended to every non-blank session row's menu. */
  items(): RowMenuItem[]
  /** Called when a row's closed menu is being opened. */
  opening(sessionId: string): void
  /** Called with every selected item id and the row's session id. */
  select(id: string, sessionId: string): void
}

/** One row of a host search page, as the browser's search takes it. */
export interface SearchItem {
  readonly sessionId: string
  readonly snippet?: string
}

/** A page of search rows, as the browser's search takes it. */
export interface SearchPage {
  readonly items: readonly SearchItem[]
  readonly hasMore: boolean
}

/** The sidebar module the patched bundle requires as `@wishp3/dsh-sessions/sidebar`. */
export interface Sidebar {
  /** Answers the Search sessions box in place of the host's search. `hostSearch`: the host's own search, for when the plugin's cannot answer. */
  search(query: string, signal: AbortSignal, hostSearch: (query: string, signal: AbortSignal) => Promise<SearchPage>): Promise<SearchPage>
  /** A line to show in place of "No matching sessions" while what was said is still being indexed; `undefined` otherwise. */
  indexingNote(query: string): string | undefined
  /** A search result was chosen: opens its session, at the matching message when the row is a match of what was said. */
  openResult(sessionId: string, open: (sessionId: string) => void): void
  /** A hook: the sessions list with each row's real title where the host shows the workspace name instead; rows re-render when titles arrive. */
  useList<L extends SessionsListView>(list: L): L
  /** Keys in the search results: the arrows move between results. */
  resultsKeyDown(event: ReactKeyboardEvent): void
  /** Keys in the Search sessions box: the down arrow moves to the first result. Returns whether it took the key. */
  searchBoxKeyDown(event: ReactKeyboardEvent): boolean
}

/** What the sidebar module reads of the browser's sessions list. */
export interface SessionsListView {
  readonly ids: readonly string[]
  readonly byId: Readonly<Record<string, { readonly id: string; readonly title?: string | undefined; readonly displayTitle: string; readonly blank: boolean } | undefined>>
}

/** What the key handlers read of a React keyboard event. */
export interface ReactKeyboardEvent {
  readonly key: string
  readonly currentTarget: EventTarget
  preventDefault(): void
}
