/**
 * The matches in the excerpts the `@` menu and the sidebar's search show, highlighted where they are drawn.
 * @module @wishp3/dsh-sessions/client/official/match-highlights
 */
import { emphasise, type MarkedText, matchesIn } from '../core/snippet.ts'
import { EXCERPT_ROOTS } from './markup.ts'

/** The name of the highlight in the page's registry, and of its style rule. */
export const MATCH_HIGHLIGHT = 'dsh-sessions-match'

/** Most excerpts remembered: the latest answers of the menu and the sidebar. */
const MAX_EXCERPTS = 200

/** How long after an excerpt is shown its row may still be on its way. */
const DRAWING_MS = 1_000


/** The registry and its highlight type, where the browser has them. */
interface HighlightRegistry {
  readonly highlights: { set(name: string, highlight: unknown): void; delete(name: string): void }
  readonly Highlight: new (...ranges: Range[]) => unknown
}

function registryOf(view: (Window & typeof globalThis) | null): HighlightRegistry | undefined {
  const css = view?.CSS as { highlights?: HighlightRegistry['highlights'] } | undefined
  const Highlight = (view as { Highlight?: HighlightRegistry['Highlight'] } | null)?.Highlight
  return css?.highlights === undefined || Highlight === undefined ? undefined : { highlights: css.highlights, Highlight }
}

/** The excerpts' matches: shown plain and highlighted where the browser can, between marks where it cannot. */
export class MatchHighlights {
  private readonly excerpts = new Map<string, MarkedText>()
  private registry: HighlightRegistry | undefined
  private doc: Document | undefined
  private scheduled = false
  private idle = true
  private shownAt = 0

  private readonly marks: { open(): string; close(): string }

  /** `marks`: the locale's marks before and after a match, for a browser without the registry. */
  constructor(marks: { open(): string; close(): string }) {
    this.marks = marks
  }

  /** The text a row shows for an excerpt. Returns the plain text, its matches highlighted once drawn; with marks where the page cannot highlight. */
  show(snippet: MarkedText): string {
    if (this.registry === undefined) return emphasise(snippet, this.marks.open(), this.marks.close())
    this.excerpts.delete(snippet.text)
    this.excerpts.set(snippet.text, snippet)
    if (this.excerpts.size > MAX_EXCERPTS) this.excerpts.delete(this.excerpts.keys().next().value!)
    this.idle = false
    this.shownAt = Date.now()
    this.schedule()
    return snippet.text
  }

  /** Starts highlighting in a document: its style rule and a watch of its changes. */
  start(doc: Document): () => void {
    const registry = registryOf(doc.defaultView)
    if (registry === undefined) return () => {}
    const style = doc.createElement('style')
    style.dataset.dshSessionsMatches = ''
    style.textContent = `::highlight(${MATCH_HIGHLIGHT}) {\n  color: var(--dsw-alias-label-primary);\n  background-color: var(--dsw-alias-state-warn-tertiary);\n}\n`
    doc.head.append(style)
    const observer = new MutationObserver(() => { if (!this.idle) this.schedule() })
    observer.observe(doc.body, { childList: true, subtree: true, characterData: true })
    this.registry = registry
    this.doc = doc
    return () => {
      observer.disconnect()
      style.remove()
      registry.highlights.delete(MATCH_HIGHLIGHT)
      this.registry = undefined
      this.doc = undefined
      this.excerpts.clear()
    }
  }

  private schedule(): void {
    const view = this.doc?.defaultView
    if (this.scheduled || view === undefined || view === null) return
    this.scheduled = true
    view.requestAnimationFrame(() => {
      this.scheduled = false
      this.look()
    })
  }

  /** Highlights the remembered excerpts' matches now on screen. */
  private look(): void {
    const { doc, registry } = this
    if (doc === undefined || registry === undefined) return
    const ranges: Range[] = []
    for (const root of doc.querySelectorAll(EXCERPT_ROOTS)) {
      const walker = doc.createTreeWalker(root, NodeFilter.SHOW_TEXT)
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        for (const [start, end] of matchesIn((node as Text).data, this.excerpts.values())) {
          const range = doc.createRange()
          range.setStart(node, start)
          range.setEnd(node, end)
          ranges.push(range)
        }
      }
    }
    this.idle = ranges.length === 0 && Date.now() - this.shownAt >= DRAWING_MS
    if (ranges.length === 0) registry.highlights.delete(MATCH_HIGHLIGHT)
    else registry.highlights.set(MATCH_HIGHLIGHT, new registry.Highlight(...ranges))
  }
}
