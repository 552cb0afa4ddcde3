/**
 * Bounded work per text: the hostile texts of `dev/hostile-texts.ts`
 * through the preflight route of a real host, through the pre-step
 * waterfall on the official rc.8 services, and through the official parser
 * alone.
 */
import { parseSessionReferenceText } from '@deepseek-ai/dsh-session-reference'
import { hostileTexts } from '../dev/hostile-texts.ts'
import { percentile } from '../dev/percentile.ts'
import { createHostHarness } from '../dev/in-process-host.ts'

/** p50 and p95 of one text kind. */
export interface HostileFigures { readonly kind: string; readonly p50: number; readonly p95: number }

/**
 * The preflight route of a running host, per text kind.
 * @param url - the host's base URL.
 * @param sessionId - the citing session.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export async function measureHostileRoute(url: string, sessionId: string, runs: number): Promise<HostileFigures[]> {
  const figures: HostileFigures[] = []
  for (const [kind, text] of Object.entries(hostileTexts())) {
    const samples: number[] = []
    for (let run = 0; run < runs + 3; run += 1) {
      const started = performance.now()
      const res = await fetch(`${url}/dsh-sessions/preflight`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessionId, text }) })
      await res.json()
      if (res.status !== 200) throw new Error(`preflight answered ${res.status}`)
      if (run >= 3) samples.push(performance.now() - started)
    }
    figures.push({ kind, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) })
  }
  return figures
}

/**
 * The pre-step waterfall at N indexed sessions, per text kind.
 * @param sessions - sessions in the store.
 * @param workspaces - workspaces they spread over.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export async function measureHostilePreStep(sessions: number, workspaces: number, runs: number): Promise<HostileFigures[]> {
  const harness = await createHostHarness()
  harness.session('session-target', { cwd: '/w/ws-00' })
  for (let n = 0; n < sessions; n += 1) {
    harness.session(`session-${n}`, { cwd: `/w/ws-${String(n % workspaces).padStart(2, '0')}`, title: `Topic ${n} notes`, messages: [`text ${n}`] })
  }
  await harness.mount()
  await harness.preStep('session-target', ['warm up'])
  const figures: HostileFigures[] = []
  for (const [kind, text] of Object.entries(hostileTexts())) {
    const samples: number[] = []
    for (let run = 0; run < runs + 3; run += 1) {
      const started = performance.now()
      const decision = await harness.preStep('session-target', [text])
      if (decision.kind !== 'enter') throw new Error('the step was rejected')
      if (run >= 3) samples.push(performance.now() - started)
    }
    figures.push({ kind, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) })
  }
  return figures
}

/**
 * The official parser alone on each text, as the host's own session-reference
 * step runs it on every user message: the official behaviour side by side.
 * @param runs - samples per kind.
 * @returns p50/p95 per kind, in milliseconds.
 */
export function measureOfficialParser(runs: number): HostileFigures[] {
  return Object.entries(hostileTexts()).map(([kind, text]) => {
    const samples: number[] = []
    for (let run = 0; run < runs; run += 1) {
      const started = performance.now()
      try {
        parseSessionReferenceText(text)
      } catch {
        // a refused mention is an answer too
      }
      samples.push(performance.now() - started)
    }
    return { kind, p50: percentile(samples, 0.5), p95: percentile(samples, 0.95) }
  })
}
