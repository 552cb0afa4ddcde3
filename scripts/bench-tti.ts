/**
 * What the plugin adds to the web UI's time to interactive: the same
 * home served by the bare host and by the host with the plugin, each page
 * load timed from navigation to a rendered, enabled composer in a fresh
 * browser profile, runs interleaved.
 */
import { launchBrowser } from '../dev/browser.ts'
import { startStack, type Stack } from '../dev/stack.ts'
import { percentile } from '../dev/percentile.ts'
import { openApp } from '../dev/web-ui.ts'

/** p50/p95 of both stacks and the added share at p50. */
export interface TtiResult {
  readonly bare: { p50: number; p95: number }
  readonly plugin: { p50: number; p95: number }
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
 * @param hostBin - the pinned host's bin folder.
 * @param tarball - the packed plugin.
 * @param runs - page loads per stack.
 * @returns the percentiles.
 */
export async function measureTti(hostBin: string, tarball: string, runs: number): Promise<TtiResult> {
  const bare = await startStack({ hostBin })
  const plugin = await startStack({ hostBin, tarball })
  try {
    await load(bare)
    await load(plugin)
    const samples: { bare: number[]; plugin: number[] } = { bare: [], plugin: [] }
    for (let run = 0; run < runs; run += 1) {
      samples.bare.push(await load(bare))
      samples.plugin.push(await load(plugin))
    }
    const summary = (values: number[]) => ({ p50: percentile(values, 0.5), p95: percentile(values, 0.95) })
    return { bare: summary(samples.bare), plugin: summary(samples.plugin) }
  } finally {
    await bare.stop()
    await plugin.stop()
  }
}
