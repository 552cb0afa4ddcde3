/** The bench's one figures module and its Markdown writer: percentiles by the nearest rank, samples timed run after run past a warm-up, one duration format, tables rendered from a report, and marker pairs replaced with the rest of the file kept byte for byte. */
import { describe, expect, it } from 'vitest'
import { ms, note, pair, percentiles, renderBlocks, renderTable, table, timed } from '../../scripts/bench/figures.ts'
import { type RenderedReport, writeTables } from '../../scripts/bench/tables.ts'
import { columnNames } from '../../scripts/bench/modes/content.ts'

const since: RenderedReport = {
  mode: 'since',
  blocks: [
    table({ title: '`since` p50 / p95', columns: ['sessions', '32 made-up ids'], rows: [['200', '4.4 ms / 10.7 ms'], ['2,000', '3.6 ms / 1.20 s']] }),
    note('a note after the table'),
  ],
}

describe('bench figures', () => {
  it('sums up samples by the nearest rank', () => {
    const samples = Array.from({ length: 20 }, (_, n) => 20 - n)
    expect(percentiles(samples)).toEqual({ p50: 10, p95: 19, runs: 20, max: 20 })
    expect(percentiles([7])).toEqual({ p50: 7, p95: 7, runs: 1, max: 7 })
    expect(percentiles([])).toEqual({ p50: 0, p95: 0, runs: 0, max: 0 })
  })

  it('times each run after the one before has settled, and drops the warm-up runs', async () => {
    const calls: number[] = []
    let running = false
    const samples = await timed(3, async () => {
      expect(running).toBe(false)
      running = true
      calls.push(calls.length)
      await new Promise(resolve => setImmediate(resolve))
      running = false
    }, 2)
    expect(calls).toEqual([0, 1, 2, 3, 4])
    expect(samples).toHaveLength(3)
    for (const sample of samples) expect(sample).toBeGreaterThan(0)
  })

  it('writes durations in milliseconds below a second and in seconds from one', () => {
    expect(ms(4.44)).toBe('4.4 ms')
    expect(ms(999.94)).toBe('999.9 ms')
    expect(ms(1000)).toBe('1.00 s')
    expect(ms(0.1234, 3)).toBe('0.123 ms')
    expect(pair({ p50: 3.6, p95: 1200 })).toBe('3.6 ms / 1.20 s')
  })

  it('renders a table under its title, a cell holding a pipe escaped', () => {
    expect(renderTable({ title: 'T', columns: ['a', 'b'], rows: [['1', 'x | y']] })).toEqual(['T', '| a | b |', '| --- | --- |', '| 1 | x \\| y |'])
    expect(renderTable({ title: 'T', columns: ['a'], rows: [] }, true)).toEqual(['T', '', '| a |', '| --- |'])
    expect(() => renderTable({ columns: ['a', 'b'], rows: [['1']] })).toThrow(/1 cells under 2 columns/)
  })

  it('prints blocks line after line, and spaces them in a Markdown file so a table ends before the next block', () => {
    expect(renderBlocks(since.blocks)).toEqual(['`since` p50 / p95', '| sessions | 32 made-up ids |', '| --- | --- |', '| 200 | 4.4 ms / 10.7 ms |', '| 2,000 | 3.6 ms / 1.20 s |', 'a note after the table'])
    expect(renderBlocks(since.blocks, true).join('\n')).toBe('`since` p50 / p95\n\n| sessions | 32 made-up ids |\n| --- | --- |\n| 200 | 4.4 ms / 10.7 ms |\n| 2,000 | 3.6 ms / 1.20 s |\n\na note after the table')
  })
})

describe('bench tables written into Markdown', () => {
  const before = '# Performance\r\n\r\nHand-written text, kept: **as is**  \n<!-- bench:since -->\nold figures\n| x |\n<!-- /bench:since -->\ntrailing text without a final newline'

  it('replaces what stands between the markers and keeps the rest byte for byte', () => {
    const after = writeTables(before, [since], 'from the run')
    const start = before.indexOf('<!-- bench:since -->') + '<!-- bench:since -->'.length
    const end = before.indexOf('<!-- /bench:since -->')
    expect(after.slice(0, start)).toBe(before.slice(0, start))
    expect(after.endsWith(before.slice(end))).toBe(true)
    expect(after.slice(start, after.length - (before.length - end))).toBe(`\n<!-- from the run -->\n\n${renderBlocks(since.blocks, true).join('\n')}\n\n`)
    expect(after).not.toContain('old figures')
  })

  it('gives the same file when written twice from the same report', () => {
    const once = writeTables(before, [since])
    expect(writeTables(once, [since])).toBe(once)
  })

  it('writes the tables alone between `:tables` markers', () => {
    const after = writeTables('a\n<!-- bench:since:tables -->\n<!-- /bench:since:tables -->\nb\n', [since])
    expect(after).toBe(`a\n<!-- bench:since:tables -->\n${renderTable(since.blocks[0]!.kind === 'table' ? since.blocks[0]!.table : { columns: [], rows: [] }, true).join('\n')}\n\n<!-- /bench:since:tables -->\nb\n`)
  })

  it('leaves the pairs of other modes alone', () => {
    const text = '<!-- bench:tools -->\nkept\n<!-- /bench:tools -->\n<!-- bench:since -->\n<!-- /bench:since -->\n'
    expect(writeTables(text, [since])).toContain('<!-- bench:tools -->\nkept\n<!-- /bench:tools -->')
  })

  it('fails when a report has no marker pair, or a marker has no partner', () => {
    expect(() => writeTables('no markers here\n', [since])).toThrow(/no <!-- bench:<mode> --> … <!-- \/bench:<mode> --> pair for since/)
    expect(() => writeTables('<!-- bench:since -->\nnever closed\n', [since])).toThrow(/never closed/)
    expect(() => writeTables('<!-- /bench:since -->\n', [since])).toThrow(/closes no/)
    expect(() => writeTables('<!-- bench:since -->\n<!-- bench:tools -->\n<!-- /bench:tools -->\n<!-- /bench:since -->\n', [since])).toThrow(/opens inside/)
    expect(() => writeTables('<!-- bench:since -->\n<!-- /bench:tools -->\n', [since])).toThrow(/closes no/)
  })
})

describe('the content bench\'s columns', () => {
  it('names a corpus and size measured again by its run, and one measured once by itself', () => {
    expect(columnNames([
      { corpus: 'realistic', sessions: 20000 },
      { corpus: 'prose', sessions: 20000 },
      { corpus: 'realistic', sessions: 20000 },
      { corpus: 'realistic', sessions: 2000 },
    ])).toEqual([
      'realistic, 20,000 sessions, run 1',
      'prose, 20,000 sessions',
      'realistic, 20,000 sessions, run 2',
      'realistic, 2,000 sessions',
    ])
  })
})
