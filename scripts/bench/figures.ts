/**
 * The bench's one figures type, its sampler, its formatter, and its report
 * blocks: every mode measures samples in milliseconds, sums them up as
 * {@link Percentiles}, and reports notes and tables that render as Markdown.
 */
import { percentile } from '../../dev/percentile.ts'

/** A sample summed up: nearest-rank p50 and p95, how many samples, and the largest. */
export interface Percentiles {
  readonly p50: number
  readonly p95: number
  readonly runs: number
  readonly max: number
}

/**
 * Sums up samples with `dev/percentile.ts`'s nearest-rank rule.
 * @param samples - measured values (none: every figure 0).
 * @returns their percentiles.
 */
export function percentiles(samples: readonly number[]): Percentiles {
  if (samples.length === 0) return { p50: 0, p95: 0, runs: 0, max: 0 }
  return { p50: percentile(samples, 0.5), p95: percentile(samples, 0.95), runs: samples.length, max: samples.reduce((most, value) => Math.max(most, value), -Infinity) }
}

/**
 * Times a call run after run, each awaited before the next starts.
 * @param runs - samples to keep.
 * @param call - what one sample times, up to the settling of what it returns.
 * @param warmUp - runs before those, timed the same way and dropped.
 * @returns the kept samples, in milliseconds, in run order.
 */
export async function timed(runs: number, call: () => Promise<unknown>, warmUp = 0): Promise<number[]> {
  const samples: number[] = []
  for (let run = 0; run < warmUp + runs; run += 1) {
    const started = performance.now()
    await call()
    if (run >= warmUp) samples.push(performance.now() - started)
  }
  return samples
}

/**
 * A duration for people: seconds from one second up, else milliseconds.
 * @param value - milliseconds.
 * @param digits - decimals of a figure under one second (seconds always take two).
 * @returns `12.3 ms` or `4.56 s`.
 */
export function ms(value: number, digits = 1): string {
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value.toFixed(digits)} ms`
}

/**
 * p50 and p95 side by side.
 * @param figures - the percentiles.
 * @returns `p50 / p95`, both through {@link ms}.
 */
export function pair(figures: Pick<Percentiles, 'p50' | 'p95'>): string {
  return `${ms(figures.p50)} / ${ms(figures.p95)}`
}

/** A table of formatted cells; the figures themselves are in the report's `figures`. */
export interface Table {
  /** The line printed above the table, if any. */
  readonly title?: string
  readonly columns: readonly string[]
  readonly rows: readonly (readonly string[])[]
}

/** One piece of a report, in print order. */
export type Block =
  | { readonly kind: 'note'; readonly text: string }
  | { readonly kind: 'table'; readonly table: Table }

/** A note block. */
export const note = (text: string): Block => ({ kind: 'note', text })

/** A table block. */
export const table = (value: Table): Block => ({ kind: 'table', table: value })

/** Escapes what would end a Markdown table cell. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('\n', ' ')
}

/**
 * A table as Markdown lines: its title, the header, the rule and the rows.
 * @param value - the table.
 * @param spaced - an empty line between the title and the table, as a Markdown file needs.
 * @returns its lines.
 */
export function renderTable(value: Table, spaced = false): string[] {
  for (const row of value.rows) {
    if (row.length !== value.columns.length) throw new Error(`a row of ${row.length} cells under ${value.columns.length} columns: ${JSON.stringify(row)}`)
  }
  return [
    ...(value.title === undefined ? [] : spaced ? [value.title, ''] : [value.title]),
    `| ${value.columns.map(cell).join(' | ')} |`,
    `| ${value.columns.map(() => '---').join(' | ')} |`,
    ...value.rows.map(row => `| ${row.map(cell).join(' | ')} |`),
  ]
}

/**
 * Blocks as Markdown lines.
 * @param blocks - notes and tables in print order.
 * @param spaced - `false` (the terminal): each note a line, each table right under the line before it; `true` (a Markdown file): an empty line between blocks, so a table ends where the next block starts.
 * @returns the lines.
 */
export function renderBlocks(blocks: readonly Block[], spaced = false): string[] {
  const rendered = blocks.map(block => (block.kind === 'note' ? [block.text] : renderTable(block.table, spaced)))
  return spaced ? rendered.flatMap((lines, n) => (n === 0 ? lines : ['', ...lines])) : rendered.flat()
}
