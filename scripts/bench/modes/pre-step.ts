/**
 * Pre-step cost of one `@Title` mention at N sessions: the plugin's
 * resolution and attachment, against the official `prepare()` alone, on the
 * official rc.8 services with an in-memory session store.
 */
import { Config, referenceParts } from '../plugin-parts.ts'
import { createHostHarness } from '../../../dev/in-process-host.ts'
import { ms, note, type Percentiles, percentiles } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/**
 * Measures both paths, interleaved.
 * @param sessions - sessions in the store.
 * @param workspaces - workspaces they spread over.
 * @param runs - samples per path.
 * @returns p50/p95 of each path in milliseconds.
 */
export async function measurePreStep(sessions: number, workspaces: number, runs: number): Promise<{ prepare: Percentiles; resolved: Percentiles }> {
  const harness = await createHostHarness()
  const { catalog: index, resolver, preparer } = referenceParts(harness.ctx)
  const official = harness.ctx.sessionReferenceResolver
  const target = harness.session('session-target', { cwd: '/w/ws-00' })
  for (let n = 0; n < sessions; n += 1) {
    harness.session(`session-${n}`, { cwd: `/w/ws-${String(n % workspaces).padStart(2, '0')}`, title: `Topic ${n} notes`, messages: [`text ${n}`] })
  }
  await index.ready()
  const config = Config({})
  const cited = `Topic ${workspaces * 7} notes`
  const text = `please compare @${cited} with this`
  const targetRef = { id: target, cwd: '/w/ws-00' }
  const prepareOnly: number[] = []
  const resolved: number[] = []
  for (let run = 0; run < runs + 10; run += 1) {
    let started = performance.now()
    await official.prepare({ id: target } as never, [{ type: 'text', text }], [{ sessionId: `session-${workspaces * 7}` as never, label: cited }])
    if (run >= 10) prepareOnly.push(performance.now() - started)
    started = performance.now()
    const resolution = await resolver.resolveText(targetRef, text, config)
    if (resolution.references.length !== 1) throw new Error(`expected one reference, got ${resolution.references.length}`)
    await preparer.attach(targetRef, { content: [{ type: 'text', text: resolution.text }], references: resolution.references })
    if (run >= 10) resolved.push(performance.now() - started)
  }
  return { prepare: percentiles(prepareOnly), resolved: percentiles(resolved) }
}

/** `npm run bench`'s pre-step part: one `@Title` mention resolved and attached, against `prepare()` alone, in process. */
export const preStep: BenchMode = {
  name: 'pre-step',
  summary: 'the pre-step cost of one `@Title` mention against the official `prepare()` alone, in process',
  async run(context) {
    const sessions = context.sessions()
    const { workspaces, runs } = context.settings
    const figures = await measurePreStep(sessions, workspaces, runs)
    return {
      mode: 'pre-step',
      settings: { sessions, workspaces, runs, warmUp: 10 },
      figures,
      units: { prepare: 'ms', resolved: 'ms' },
      blocks: [note(`pre-step with one @Title mention: prepare() alone p50 ${ms(figures.prepare.p50)} / p95 ${ms(figures.prepare.p95)}; resolution + prepare() p50 ${ms(figures.resolved.p50)} / p95 ${ms(figures.resolved.p95)}; added p95 ${ms(figures.resolved.p95 - figures.prepare.p95)}`)],
    }
  },
}
