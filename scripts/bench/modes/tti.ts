/**
 * What the plugin adds to the web UI's time to interactive: the same
 * home served by the bare host and by the host with the plugin, each page
 * load timed from navigation to a rendered, enabled composer in a fresh
 * browser profile, runs interleaved.
 */
import { launchBrowser } from '../../../dev/browser.ts'
import type { Stack } from '../../../dev/stack.ts'
import { openApp } from '../../../dev/web-ui.ts'
import { ms, note, type Percentiles, percentiles } from '../figures.ts'
import type { BenchContext, BenchMode } from '../mode.ts'

/** p50/p95 of both stacks. */
export interface TtiResult {
  readonly bare: Percentiles
  readonly plugin: Percentiles
}

async function load(stack: Stack): Promise<number> {
  const browser = await launchBrowser()
  try {
    return await openApp(browser.page, stack.web.url)
  } finally {
    await browser.close()
  }
}

/**
 * Measures both.
 * @param context - the bench's set-up.
 * @param runs - page loads per stack.
 * @returns the percentiles.
 */
export async function measureTti(context: BenchContext, runs: number): Promise<TtiResult> {
  const bare = await context.stack({})
  const plugin = await context.stack({ tarball: context.tarball() })
  try {
    await load(bare)
    await load(plugin)
    const samples: { bare: number[]; plugin: number[] } = { bare: [], plugin: [] }
    for (let run = 0; run < runs; run += 1) {
      samples.bare.push(await load(bare))
      samples.plugin.push(await load(plugin))
    }
    return { bare: percentiles(samples.bare), plugin: percentiles(samples.plugin) }
  } finally {
    await bare.stop()
    await plugin.stop()
  }
}

/** `npm run bench`'s time-to-interactive part: the web UI bare and with the plugin, page loads interleaved. */
export const tti: BenchMode = {
  name: 'tti',
  summary: 'web UI time to interactive with and without the plugin, in Chromium',
  async run(context) {
    const runs = 15
    const figures = await measureTti(context, runs)
    return {
      mode: 'tti',
      settings: { runs },
      figures,
      units: { bare: 'ms', plugin: 'ms' },
      blocks: [note(`web UI time to interactive (navigation to rendered composer, fresh profile, ${runs} loads each): bare p50 ${ms(figures.bare.p50)} / p95 ${ms(figures.bare.p95)}; with the plugin p50 ${ms(figures.plugin.p50)} / p95 ${ms(figures.plugin.p95)}; added at p50 ${((figures.plugin.p50 / figures.bare.p50 - 1) * 100).toFixed(1)} %`)],
    }
  },
}
