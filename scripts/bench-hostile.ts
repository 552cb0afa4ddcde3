/**
 * Bounded work per text: 64 KiB texts that name unknown sessions in every
 * form the resolver reads, through the preflight route of a real host and
 * through the pre-step waterfall on the official rc.8 services.
 */
import { formatSessionReferenceMention, parseSessionReferenceText } from '@deepseek-ai/dsh-session-reference'
import { percentile } from '../dev/percentile.ts'
import { createHostHarness } from '../dev/in-process-host.ts'

/** p50 and p95 of one text kind. */
export interface HostileFigures { readonly kind: string; readonly p50: number; readonly p95: number }

/** A unit repeated to just under a size in bytes. */
const repeatTo = (unit: string, bytes = 64 * 1024 - 512): string => unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)))

const unknownId = (n: number) => `session-ffffffff-0000-4000-8000-${String(n).padStart(12, '0')}`

/**
 * Texts just under 64 KiB (as JSON bodies): distinct unknown ids, one
 * unknown id repeated, canonical mentions of unknown ids, nothing but `@`,
 * and the texts on which a backtracking scan of the canonical pattern
 * rescans to the end from every start (unclosed and nested brackets,
 * backslashes, runs of `@`, unclosed URIs, scheme fragments).
 * @returns the texts by kind.
 */
export function hostileTexts(): Record<string, string> {
  const fill = (unit: (n: number) => string) => {
    let text = ''
    for (let n = 0; ; n += 1) {
      const next = `${unit(n)} `
      if (Buffer.byteLength(text + next) > 64 * 1024 - 512) return text
      text += next
    }
  }
  return {
    'distinct unknown ids': fill(unknownId),
    'one unknown id repeated': fill(() => unknownId(7)),
    'canonical mentions of unknown ids': fill(n => formatSessionReferenceMention({ sessionId: unknownId(n) as never, label: `gone ${n}` })),
    'only @': '@'.repeat(64 * 1024 - 512),
    'unclosed @[': repeatTo('@['),
    'nested brackets': repeatTo('@[['),
    // JSON doubles every backslash.
    'backslashes': repeatTo('@[\\', 32 * 1024 - 512),
    'runs of @ then @[': `${'@'.repeat(32 * 1024)}${repeatTo('@[', 32 * 1024 - 512)}`,
    'unclosed URIs': repeatTo('@[](dsh-session:'),
    'scheme fragments': repeatTo('dsh-session:@['),
  }
}

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
