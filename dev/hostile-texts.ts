/**
 * Texts just under 64 KiB as JSON bodies, inside the routes' body limit,
 * that name unknown sessions in every form the resolver reads, and that make
 * a backtracking scan of the canonical mention pattern rescan to the end
 * from every start. Shared by the bench and the host specs, so both measure
 * the same texts.
 */
import { SessionId } from '@deepseek-ai/dsh-session'
import { formatSessionReferenceMention } from '@deepseek-ai/dsh-session-reference'

/** The routes' body limit, less room for the rest of the JSON body. */
const BYTES = 64 * 1024 - 512

const unknownId = (n: number): string => `session-ffffffff-0000-4000-8000-${String(n).padStart(12, '0')}`

/** A unit repeated to just under a size in bytes. */
const repeatTo = (unit: string, bytes = BYTES): string => unit.repeat(Math.floor(bytes / Buffer.byteLength(unit)))

/** Numbered units, each followed by a space, to just under {@link BYTES}. */
function fill(unit: (n: number) => string): string {
  const parts: string[] = []
  let bytes = 0
  for (let n = 0; ; n += 1) {
    const next = `${unit(n)} `
    bytes += Buffer.byteLength(next)
    if (bytes > BYTES) return parts.join('')
    parts.push(next)
  }
}

/** The kinds on which a backtracking scan of the canonical pattern takes quadratic time. */
export const QUADRATIC_KINDS = ['unclosed @[', 'nested brackets', 'backslashes', 'runs of @ then @[', 'unclosed URIs', 'scheme fragments'] as const

/**
 * The texts by kind: distinct unknown ids, one unknown id repeated,
 * canonical mentions of unknown ids, nothing but `@`, then the
 * {@link QUADRATIC_KINDS}.
 * @returns the texts by kind.
 */
export function hostileTexts(): Record<string, string> {
  return {
    'distinct unknown ids': fill(unknownId),
    'one unknown id repeated': fill(() => unknownId(7)),
    'canonical mentions of unknown ids': fill(n => formatSessionReferenceMention({ sessionId: SessionId(unknownId(n)), label: `gone ${n}` })),
    'only @': '@'.repeat(BYTES),
    'unclosed @[': repeatTo('@['),
    'nested brackets': repeatTo('@[['),
    // JSON doubles every backslash.
    'backslashes': repeatTo('@[\\', BYTES / 2),
    'runs of @ then @[': `${'@'.repeat(32 * 1024)}${repeatTo('@[', BYTES - 32 * 1024)}`,
    'unclosed URIs': repeatTo('@[](dsh-session:'),
    'scheme fragments': repeatTo('dsh-session:@['),
  }
}
