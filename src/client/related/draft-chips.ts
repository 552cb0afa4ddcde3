/**
 * The sessions a draft's chips already cite, which the related-sessions row does not offer.
 * @module @wishp3/dsh-sessions/client/related/draft-chips
 */
import { decodeChipRef } from '../core/chip-ref.ts'

/** The sessions a draft's chips of `source` cite. */
export function citedByChips(occurrences: readonly { readonly source: string; readonly ref: string }[], source: string): string[] {
  const cited = new Set<string>()
  for (const occurrence of occurrences) {
    if (occurrence.source !== source) continue
    const ref = decodeChipRef(occurrence.ref)
    if (ref?.kind === 'session') cited.add(ref.citedSessionId)
  }
  return [...cited]
}
