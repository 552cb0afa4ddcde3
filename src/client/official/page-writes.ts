/**
 * The plugin's writes into the host's page, and its listeners on the whole page: each in one place,
 * so what the plugin changes of markup it does not own is listed here.
 * @module @wishp3/dsh-sessions/client/official/page-writes
 */

/** Marks a sent reference in a user's bubble as a link to its source, once. */
export function markSentReference(chip: HTMLElement, mark: { readonly attr: string; readonly source: string; readonly seqs: readonly number[]; readonly label: string; readonly className: string }): void {
  if (chip.getAttribute(mark.attr) === mark.source) return
  chip.setAttribute(mark.attr, mark.source)
  chip.dataset.dshSessionsSeqs = mark.seqs.join(',')
  chip.setAttribute('role', 'link')
  chip.tabIndex = 0
  chip.setAttribute('aria-label', mark.label)
  chip.classList.add(mark.className)
}

/** The "updated since" button right after a sent reference: the one there, or a new one. */
export function sinceButtonAfter(chip: HTMLElement, attr: string, className: string): HTMLElement {
  const next = chip.nextElementSibling
  if (next instanceof HTMLElement && next.hasAttribute(attr)) return next
  const button = document.createElement('button')
  button.setAttribute('type', 'button')
  button.className = className
  chip.after(button)
  return button
}

/** Sets what the "updated since" button says and where it leads. */
export function writeSinceButton(button: HTMLElement, fields: { readonly attrs: Readonly<Record<string, string>>; readonly text: string; readonly title: string }): void {
  for (const [name, value] of Object.entries(fields.attrs)) button.setAttribute(name, value)
  button.textContent = fields.text
  button.title = fields.title
}

/** Listens on the whole page, before the page's own handlers. Returns the function that stops it. */
export function listenOnPage<K extends keyof DocumentEventMap>(type: K, listener: (event: DocumentEventMap[K]) => void): () => void {
  document.addEventListener(type, listener, true)
  return () => { document.removeEventListener(type, listener, true) }
}

/** A marked container for one of the plugin's own roots at the end of a host element. */
export function mountAtEnd(host: HTMLElement, attr: string, value: string): HTMLElement {
  const container = document.createElement('span')
  container.setAttribute(attr, value)
  container.style.display = 'contents'
  host.append(container)
  return container
}

/** Marks rows with a class for a moment. */
export function flashRows(rows: readonly (HTMLElement | undefined)[], className: string, ms: number): void {
  for (const row of rows) {
    row?.classList.add(className)
    setTimeout(() => row?.classList.remove(className), ms)
  }
}

/** The focused element of a document, if any. */
export function focusedElement(doc: Document): HTMLElement | null {
  return doc.activeElement instanceof HTMLElement ? doc.activeElement : null
}
