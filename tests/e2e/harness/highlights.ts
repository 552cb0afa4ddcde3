/**
 * Reading rows whose matches the plugin highlights: the text of each
 * element with every highlighted range between « and », so a test reads the
 * highlights where the user sees them. The page's highlight registry holds
 * the ranges; none there, and the text is as drawn.
 */
import type { Locator } from 'playwright-core'

/** The highlight the plugin registers its matches under. */
export const MATCH_HIGHLIGHT = 'dsh-sessions-match'

/**
 * Each element's text, its text nodes on lines of their own, the highlighted ranges in them between « and ».
 * @param elements - the rows.
 * @param highlight - the highlight's name in the page's registry.
 * @returns one string per row.
 */
export function markedTexts(elements: Locator, highlight = MATCH_HIGHLIGHT): Promise<string[]> {
  return elements.evaluateAll((rows, name) => {
    const registry = (CSS as unknown as { highlights?: Map<string, Iterable<Range>> }).highlights
    const ranges = [...(registry?.get(name) ?? [])]
    return rows.map(row => {
      const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT)
      const lines: string[] = []
      for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
        const data = (node as Text).data
        const cuts = ranges.filter(range => range.startContainer === node).map(range => [range.startOffset, range.endOffset] as const).sort((a, b) => a[0] - b[0])
        let line = ''
        let at = 0
        for (const [start, end] of cuts) {
          line += `${data.slice(at, start)}«${data.slice(start, end)}»`
          at = end
        }
        lines.push(line + data.slice(at))
      }
      return lines.join('\n')
    })
  }, highlight)
}

/**
 * How many highlighted ranges lie inside an element.
 * @param element - the menu or a results tree.
 * @returns the count (0 when the element is not there).
 */
export async function highlightsIn(element: Locator): Promise<number> {
  if (await element.count() === 0) return 0
  return element.first().evaluate((root, name) => {
    const registry = (CSS as unknown as { highlights?: Map<string, Iterable<Range>> }).highlights
    return [...(registry?.get(name) ?? [])].filter(range => root.contains(range.startContainer)).length
  }, MATCH_HIGHLIGHT)
}
