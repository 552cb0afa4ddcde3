/**
 * Read-once snapshots, on the official rc.8 services with the host's JSONL
 * persistence in a temporary folder and N cold sessions: the host-side work
 * of a send with 3 session chips (the preflight measuring each source, then
 * the pre-step attaching them) with the read-once cache and without it
 * (every read from storage), for sources of about 2 MB each; and the
 * pre-step of a message citing 3 cached sources against the same step
 * without references.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'
import { Config, referenceParts, type SnapshotPreparer } from '../plugin-parts.ts'
import { createHostHarness } from '../../../dev/in-process-host.ts'
import { ms, note, type Percentiles, percentiles } from '../figures.ts'
import type { BenchMode } from '../mode.ts'

/** Figures of the read-once bench. */
export interface ReadOnceFigures {
  readonly sourceBytes: number
  readonly uncached: Percentiles
  readonly cached: Percentiles
  readonly stepPlain: Percentiles
  readonly stepCited: Percentiles
  readonly preflight: Percentiles
}

/**
 * Writes the store and measures.
 * @param sessions - cold sessions in the store (3 of them large).
 * @param runs - samples per path.
 * @returns the figures in milliseconds.
 */
export async function measureReadOnce(sessions: number, runs: number): Promise<ReadOnceFigures> {
  const root = mkdtempSync(join(tmpdir(), 'dsh-sessions-bench-read-once-'))
  try {
    const writer = await createHostHarness({ persistenceRoot: root })
    const chunk = 'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(180)
    for (let n = 0; n < sessions; n += 1) {
      const large = n < 3
      const id = `session-${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`
      writer.session(id, { cwd: `/w/ws-${String(n % 20).padStart(2, '0')}`, title: `Topic ${n} notes`, messages: large ? [] : [`text ${n}`] })
      const session = writer.ctx.sessions.get(SessionId(id))!
      if (large) {
        for (let m = 0; m < 200; m += 1) {
          session.append('user/message', createUserMessage({ content: [{ type: 'text', text: `${m} ${chunk}` }], source: { kind: 'user' } }), { surfaceOp: 'append' })
        }
      }
      await writer.ctx.sessions.flush(session)
    }
    const sourceBytes = 200 * (chunk.length + 4)
    const reader = await createHostHarness({ persistenceRoot: root })
    reader.session('session-target', { cwd: '/w/ws-00' })
    const parts = referenceParts(reader.ctx)
    const { catalog: index, resolver } = parts
    await index.ready()
    const config = Config({ scope: 'all' })
    const target = { id: 'session-target', cwd: '/w/ws-00' }
    const large = [0, 1, 2].map(n => `session-${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`)
    const text = `compare ${large.map(id => formatSessionReferenceMention({ sessionId: id as never, label: id })).join(' ')}`

    const send = async (preparer: SnapshotPreparer) => {
      const resolved = await resolver.resolveText(target, text, config)
      await Promise.all(resolved.references.map(reference => preparer.measure(target, reference)))
      const attached = await preparer.attach(target, { content: [{ type: 'text', text: resolved.text }], references: resolved.references })
      if (attached.attached.length !== 3) throw new Error('expected 3 attached sources')
    }
    const timed = async (work: () => Promise<void>, count: number) => {
      const samples: number[] = []
      for (let run = 0; run < count; run += 1) {
        const started = performance.now()
        await work()
        samples.push(performance.now() - started)
      }
      return percentiles(samples)
    }
    const uncached = await timed(() => send(parts.preparerWith({ surfaceTtlMs: 0 })), Math.min(runs, 10))
    const cachedPreparer = parts.preparer
    // Each send after the first finds its sources unchanged since the chips were measured: the cached path.
    await send(cachedPreparer)
    const cached = await timed(() => send(cachedPreparer), Math.min(runs, 10))

    const mounted = await createHostHarness({ persistenceRoot: root })
    mounted.session('session-target', { cwd: '/w/ws-00' })
    const { url } = await mounted.mount({ scope: 'all' })
    const post = (body: unknown) => fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(res => res.json())
    await post({ citingSessionId: 'session-target', text, chips: large })
    const preflight = await timed(async () => { await post({ citingSessionId: 'session-target', text, chips: large }) }, runs)
    const stepPlain = await timed(async () => { await mounted.preStep('session-target', ['a message without references']) }, runs)
    const stepCited = await timed(async () => { await mounted.preStep('session-target', [text]) }, runs)
    return { sourceBytes, uncached, cached, stepPlain, stepCited, preflight }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/** `npm run bench`'s read-once part: a send with 3 chips of large sources, cached and not, and the pre-step citing them, in process. */
export const readOnce: BenchMode = {
  name: 'read-once',
  summary: 'read-once snapshots: a send with 3 chips of 2 MB sources with and without the cache, in process on JSONL storage',
  async run(context) {
    const sessions = context.sessions()
    const runs = 30
    const figures = await measureReadOnce(sessions, runs)
    return {
      mode: 'read-once',
      settings: { sessions, runs, sendRuns: Math.min(runs, 10) },
      figures,
      units: { sourceBytes: 'bytes', uncached: 'ms', cached: 'ms', stepPlain: 'ms', stepCited: 'ms', preflight: 'ms' },
      blocks: [
        note(`pre-step at ${sessions} cold sessions, host JSONL storage (target: cited adds ≤ 5 ms at p95): no references p50 ${ms(figures.stepPlain.p50)} / p95 ${ms(figures.stepPlain.p95)}; 3 cached sources p50 ${ms(figures.stepCited.p50)} / p95 ${ms(figures.stepCited.p95)}; added p95 ${ms(figures.stepCited.p95 - figures.stepPlain.p95)}`),
        note(`host work from Send to the model request, 3 chips of ${(figures.sourceBytes / 1e6).toFixed(1)} MB sources (preflight measuring each, then the pre-step): every read from storage p50 ${ms(figures.uncached.p50)} / p95 ${ms(figures.uncached.p95)}; read once p50 ${ms(figures.cached.p50)} / p95 ${ms(figures.cached.p95)}`),
      ],
    }
  },
}
