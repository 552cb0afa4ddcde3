// @vitest-environment jsdom
/** The matches of excerpts highlighted where the host draws them, through the page's highlight registry, or marked where the page has none. */
import { afterEach, describe, expect, it } from 'vitest'
import { matchesIn } from '../../src/client/core/snippet.ts'
import { MATCH_HIGHLIGHT, MatchHighlights } from '../../src/client/official/match-highlights.ts'

const marks = { open: () => '«', close: () => '»' }
const excerpt = { text: '…we planned the billing migration', marks: [[16, 23], [24, 33]] as [number, number][] }

/** A highlight registry as the browser has it: the registry and the highlight type. */
function installRegistry(): Map<string, { ranges: Range[] }> {
  const registry = new Map<string, { ranges: Range[] }>()
  Object.assign(window.CSS ?? Object.assign(window, { CSS: {} }).CSS, { highlights: registry })
  Object.assign(window, { Highlight: class { readonly ranges: Range[]; constructor(...ranges: Range[]) { this.ranges = ranges } } })
  return registry
}

const frame = () => new Promise(resolve => { requestAnimationFrame(resolve) })

afterEach(() => {
  document.body.replaceChildren()
  delete (window as { Highlight?: unknown }).Highlight
  if (window.CSS !== undefined) delete (window.CSS as { highlights?: unknown }).highlights
})

describe('the matches of excerpts', () => {
  it('finds the matches of an excerpt inside the text of a row that shows it with more words', () => {
    expect(matchesIn(`${excerpt.text} · 2 minutes ago`, [excerpt])).toEqual([[16, 23], [24, 33]])
    expect(matchesIn('→ ' + excerpt.text, [excerpt])).toEqual([[18, 25], [26, 35]])
    expect(matchesIn('another row', [excerpt])).toEqual([])
    expect(matchesIn('abc', [{ text: 'abc', marks: [[2, 1], [0, 9], [0, 1]] }])).toEqual([[0, 1]])
  })

  it('shows the matches between marks where the page has no highlight registry', () => {
    const matches = new MatchHighlights(marks)
    const stop = matches.start(document)
    expect(matches.show(excerpt)).toBe('…we planned the «billing» «migration»')
    stop()
  })

  it('shows the plain text and highlights its matches in the menu once drawn, with the theme\'s tokens, and stops cleanly', async () => {
    const registry = installRegistry()
    const matches = new MatchHighlights(marks)
    const stop = matches.start(document)
    expect(document.head.querySelector('style[data-dsh-sessions-matches]')!.textContent).toMatch(/::highlight\(dsh-sessions-match\) \{[^}]*var\(--dsw-alias-state-warn-tertiary\)/)
    const shown = matches.show(excerpt)
    expect(shown).toBe(excerpt.text)
    const menu = document.createElement('div')
    menu.setAttribute('role', 'listbox')
    menu.textContent = `${shown} · 2 minutes ago`
    document.body.append(menu)
    await frame()
    await frame()
    expect(registry.get(MATCH_HIGHLIGHT)!.ranges.map(range => range.toString())).toEqual(['billing', 'migration'])
    // Text outside the menu and the sidebar's search results is never looked at: not a paragraph, not the sidebar's session tree.
    const elsewhere = document.createElement('p')
    elsewhere.textContent = excerpt.text
    const sessions = document.createElement('div')
    sessions.setAttribute('role', 'tree')
    sessions.textContent = excerpt.text
    document.body.append(elsewhere, sessions)
    await frame()
    await frame()
    expect(registry.get(MATCH_HIGHLIGHT)!.ranges).toHaveLength(2)
    const results = document.createElement('div')
    results.setAttribute('role', 'tree')
    results.dataset.dshSessionsResults = ''
    results.textContent = excerpt.text
    document.body.append(results)
    await frame()
    await frame()
    expect(registry.get(MATCH_HIGHLIGHT)!.ranges.map(range => range.startContainer.parentNode)).toEqual([menu, menu, results, results])
    stop()
    expect(registry.has(MATCH_HIGHLIGHT)).toBe(false)
    expect(document.head.querySelector('style[data-dsh-sessions-matches]')).toBeNull()
  })
})
