/**
 * The sessions a sent message referenced, read off the session's chat nodes.
 * @module @wishp3/dsh-sessions/client/core/snapshot-sources
 */

export interface SentSource {
  readonly sessionId: string
  readonly label: string
  readonly capturedThroughSeq: number | null
  /** The cited messages' seqs, for a part reference. */
  readonly messageSeqs?: readonly number[]
  /** When the snapshot was captured (ms), when the node tells. */
  readonly capturedAt?: number
}

export interface ReadNode {
  readonly key: string
  readonly kind: string
  readonly data: unknown
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value as Record<string, unknown> : undefined
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined
}

function sourcesOf(data: Record<string, unknown>): SentSource[] {
  const source = record(data.source)
  if (source?.kind !== 'session-reference' || !Array.isArray(source.references)) return []
  const capturedAt = typeof data.time === 'number' ? data.time : undefined
  return source.references.flatMap((entry: unknown): SentSource[] => {
    const reference = record(entry)
    if (reference === undefined || typeof reference.sessionId !== 'string' || reference.sessionId === '' || typeof reference.label !== 'string') return []
    const seqs = Array.isArray(reference.messageSeqs) ? reference.messageSeqs.map(wholeNumber).filter(seq => seq !== undefined) : []
    return [{
      sessionId: reference.sessionId,
      label: reference.label,
      capturedThroughSeq: wholeNumber(reference.capturedThroughSeq) ?? null,
      ...(seqs.length === 0 ? {} : { messageSeqs: seqs }),
      ...(capturedAt === undefined ? {} : { capturedAt }),
    }]
  })
}

/** The sources each sent user message referenced. `nodes`: the session's chat nodes, in any order. */
export function sentSources(nodes: Iterable<ReadNode>): Map<string, SentSource[]> {
  const userBySeq = new Map<number, string>()
  const recalls: { seq: number; sources: SentSource[] }[] = []
  for (const node of nodes) {
    const data = record(node.data)
    const seq = wholeNumber(data?.seq)
    if (data === undefined || seq === undefined) continue
    if (node.kind === 'user' || node.kind === 'steering') userBySeq.set(seq, node.key)
    else if (node.kind === 'context') {
      const sources = sourcesOf(data)
      if (sources.length > 0) recalls.push({ seq, sources })
    }
  }
  const out = new Map<string, SentSource[]>()
  for (const { seq, sources } of recalls) {
    const key = userBySeq.get(seq - 1)
    if (key !== undefined) out.set(key, sources)
  }
  return out
}

/** Which source a sent reference's label in the bubble names: the bubble shows each source's label after `@`, so the label is the chip's text. `chipText`: the text of the bubble's reference label. */
export function sourceOfChip(sources: readonly SentSource[], chipText: string): SentSource | undefined {
  const text = chipText.trim()
  return sources.find(source => source.label === text) ?? sources.find(source => text.endsWith(source.label))
}
