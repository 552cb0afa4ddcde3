/**
 * The find bar's match, highlighted in the chat row that shows it: each word the route marked in the
 * match's excerpt, wherever the row's text holds it (case aside). Where the browser has no highlight
 * registry the row's own mark is all there is.
 * @module @wishp3/dsh-sessions/client/official/find-highlight
 */

/** The name of the highlight in the page's registry, and of its style rule. */
export const FIND_HIGHLIGHT = 'dsh-sessions-find'

/** Most ranges one row is given: a long message that says a word many times marks its first ones. */
const MAX_RANGES = 200

interface Registry {
  readonly highlights: { set(name: string, highlight: unknown): void; delete(name: string): void }
  readonly Highlight: new (...ranges: Range[]) => unknown
}

function registryOf(doc: Document): Registry | undefined {
  const view = doc.defaultView
  const highlights = (view?.CSS as { highlights?: Registry['highlights'] } | undefined)?.highlights
  const Highlight = (view as { Highlight?: Registry['Highlight'] } | null)?.Highlight
  return highlights === undefined || Highlight === undefined ? undefined : { highlights, Highlight }
}

/** Highlights in `row` every place its text holds one of `words` (compared in lower case), replacing the bar's earlier highlight. Returns how many places were highlighted. */
export function highlightFound(row: HTMLElement, words: readonly string[]): number {
  const doc = row.ownerDocument
  const registry = registryOf(doc)
  if (registry === undefined) return 0
  if (doc.querySelector('style[data-dsh-sessions-find]') === null) {
    const style = doc.createElement('style')
    style.dataset.dshSessionsFind = ''
    style.textContent = `::highlight(${FIND_HIGHLIGHT}) {\n  color: var(--dsw-alias-label-primary);\n  background-color: var(--dsw-alias-state-warn-tertiary);\n  text-decoration: underline 2px var(--dsw-alias-brand-primary);\n}\n`
    doc.head.append(style)
  }
  const wanted = [...new Set(words.map(word => word.toLowerCase()).filter(word => word !== ''))]
  const ranges: Range[] = []
  const walker = doc.createTreeWalker(row, NodeFilter.SHOW_TEXT)
  for (let node = walker.nextNode(); node !== null && ranges.length < MAX_RANGES; node = walker.nextNode()) {
    const text = (node as Text).data.toLowerCase()
    for (const word of wanted) {
      for (let at = text.indexOf(word); at >= 0 && ranges.length < MAX_RANGES; at = text.indexOf(word, at + word.length)) {
        const range = doc.createRange()
        range.setStart(node, at)
        range.setEnd(node, at + word.length)
        ranges.push(range)
      }
    }
  }
  if (ranges.length === 0) registry.highlights.delete(FIND_HIGHLIGHT)
  else registry.highlights.set(FIND_HIGHLIGHT, new registry.Highlight(...ranges))
  return ranges.length
}

/** Removes the bar's highlight from the page. */
export function clearFound(doc: Document): void {
  registryOf(doc)?.highlights.delete(FIND_HIGHLIGHT)
}
