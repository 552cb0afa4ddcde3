/**
 * The one resolution preflight and the pre-step share: text in; readable text, the in-scope references
 * in text order, and the failures out.
 * @module @wishp3/dsh-sessions/host/references/mention-resolver
 */
import { SessionId } from '@deepseek-ai/dsh-session'
import type { Config } from '../../config.ts'
import { type MessageMention, scanMessageReferences } from '../../shared/message-reference.ts'
import { type CitedSource, mergeSources } from './cited-source.ts'
import { type CanonicalMention, scanCanonicalMentions } from './canonical-mentions.ts'
import { boundLabelScans, defuseSessionUris } from './readable-text.ts'
import { scanBareSessionIds } from './session-ids.ts'
import { applySpanEdits, type Span, type SpanEdit } from './spans.ts'
import { titleKey } from './title-catalog.ts'
import { scanTitleMentions } from './title-mentions.ts'
import { isInScope, rankedInScope, type ReferenceTarget } from '../sessions/scope.ts'
import { codeOf, type ReferenceFailure, refusal } from './reference-failure.ts'
import { type CatalogedSession, type LookupBudget, type SessionCatalog, STORAGE_READS_PER_TEXT } from '../sessions/session-catalog.ts'

/** Result of resolving one text. */
export interface ResolvedText {
  /** Readable text: canonical mentions as `@label`, no parseable session URI. */
  readonly text: string
  /** One in-scope source per session, in text order; a session cited only in parts carries the messages cited. */
  readonly references: readonly CitedSource[]
  readonly failures: readonly ReferenceFailure[]
  /** Distinct bare ids that named no session the scope shows, unknown and out of scope alike: they stay text. */
  readonly idsAsText: number
}

interface Found {
  readonly at: number
  readonly reference: CitedSource
}

/** What every form of naming a session holds: an `@` (mentions, message references, titles) or `session` (bare ids and `dsh-session:` URIs, in any case). */
const MAY_NAME_A_SESSION = /@|session/i

/** Whether the text has an `@` outside the given spans (sorted by start, not overlapping). */
function atOutside(text: string, spans: readonly Span[]): boolean {
  let next = 0
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    while (next < spans.length && spans[next]!.end <= at) next += 1
    const span = spans[next]
    if (span === undefined || at < span.start) return true
    at = span.end - 1
  }
  return false
}

/** Resolves the session mentions of a text against the session catalog, under the current scope: this plugin's own resolver, which decides what a message cites before the official `SessionReferenceResolver` prepares any snapshot. */
export class ScopedMentionResolver {
  private readonly catalog: SessionCatalog

  constructor(catalog: SessionCatalog) {
    this.catalog = catalog
  }

  /** Resolves the mentions of one text. */
  async resolveText(target: ReferenceTarget, text: string, config: Config): Promise<ResolvedText> {
    const canonical = scanCanonicalMentions(text)
    const parts = scanMessageReferences(text)
    if (MAY_NAME_A_SESSION.test(text) && this.needsListing({ target, text, config }, [...canonical, ...parts])) await this.catalog.ready()
    const found: Found[] = []
    const failures: ReferenceFailure[] = []
    const edits: SpanEdit[] = []
    const budget: LookupBudget = { remaining: STORAGE_READS_PER_TEXT }
    const looked = new Map<string, Promise<CatalogedSession | undefined>>()
    const lookup = (id: string): Promise<CatalogedSession | undefined> => {
      let pending = looked.get(id)
      if (pending === undefined) looked.set(id, pending = this.catalog.lookup(id, budget))
      return pending
    }
    const failed = new Set<string>()
    const fail = (failure: ReferenceFailure): void => {
      const key = failure.sessionId ?? `${failure.code}:${failure.message}`
      if (failed.has(key)) return
      failed.add(key)
      failures.push(failure)
    }
    for (const mention of canonical) {
      if (mention.reference === undefined) {
        fail(refusal(codeOf(mention.error, 'invalid-reference'), { uri: mention.uri, ...(mention.label === undefined ? {} : { label: mention.label }) }))
        if (mention.label !== undefined) edits.push({ start: mention.start, end: mention.end, text: `@${mention.label}` })
        continue
      }
      const { sessionId } = mention.reference
      const label = mention.reference.label ?? sessionId
      edits.push({ start: mention.start, end: mention.end, text: `@${label}` })
      const failure = this.check(target, config, { sessionId, label, session: sessionId === target.id ? undefined : await lookup(sessionId) })
      if (failure === undefined) found.push({ at: mention.start, reference: { sessionId, label } })
      else fail(failure)
    }

    // Message references: a part of a session, under the same checks as the whole; a malformed one is refused, never read as a whole session.
    for (const part of parts) {
      if (part.label !== undefined) edits.push({ start: part.start, end: part.end, text: `@${part.label}` })
      if (part.reference === undefined) {
        fail(refusal('invalid-reference', { uri: part.uri, ...(part.label === undefined ? {} : { label: part.label }) }))
        continue
      }
      const { sessionId, selection, agent } = part.reference
      const session = sessionId === target.id ? undefined : await lookup(sessionId)
      const failure = this.check(target, config, { sessionId, label: part.label ?? sessionId, session })
        ?? (agent === true && !config.agentTools ? refusal('agent-cannot-read', { sessionId, label: part.label ?? sessionId }) : undefined)
      if (failure === undefined) {
        const label = part.label?.trim() === '' ? undefined : part.label
        found.push({ at: part.start, reference: { sessionId: SessionId(sessionId), ...(label === undefined ? {} : { label }), title: session!.label, ...(agent === true ? { agent } : { selection }) } })
      }
      else fail(failure)
    }

    const claimed: Span[] = [...canonical, ...parts]
    // The in-scope title table is built only for a text that can hold an `@Title`.
    if (config.allowPlainTitleMentions && text.includes('@')) {
      const inScope = rankedInScope(this.catalog.list(), target, config.scope).filter(session => session.title !== undefined)
      const byTitle = new Map<string, typeof inScope>()
      for (const session of inScope) {
        const key = titleKey(session.title!)
        const named = byTitle.get(key)
        if (named === undefined) byTitle.set(key, [session])
        else named.push(session)
      }
      const titles = [...new Set(inScope.map(session => session.title!))]
      for (const mention of scanTitleMentions(text, titles, canonical)) {
        claimed.push(mention)
        const named = byTitle.get(titleKey(mention.title)) ?? []
        const [session] = named
        if (session === undefined || named.length !== 1) continue
        found.push({ at: mention.start, reference: { sessionId: SessionId(session.id), label: session.label, inText: true } })
      }
    }

    const asText = new Set<string>()
    if (config.allowBareSessionIds) {
      for (const bare of scanBareSessionIds(text, claimed)) {
        if (bare.id === target.id) {
          fail(refusal('self-reference', { sessionId: bare.id, label: bare.id }))
          continue
        }
        // A bare id resolves only when it names a session the scope shows; any other stays as written.
        const session = await lookup(bare.id)
        if (session !== undefined && isInScope(config.scope, target, session)) found.push({ at: bare.start, reference: { sessionId: SessionId(bare.id), label: session.label, inText: true } })
        else asText.add(bare.id)
      }
    }

    const references = mergeSources(found.sort((a, b) => a.at - b.at).map(({ reference }) => reference))
    return { text: boundLabelScans(defuseSessionUris(applySpanEdits(text, edits))), references, failures, idsAsText: asText.size }
  }

  /** Whether resolving this text must wait for the index's first listing: a text that may hold an `@Title` needs every title in scope, and one that names more sessions than a text may read from storage needs the listing to know them. Any other text looks its few ids up one log each. */
  private needsListing(draft: { readonly target: ReferenceTarget; readonly text: string; readonly config: Config }, mentions: readonly (CanonicalMention | MessageMention)[]): boolean {
    const { target, text, config } = draft
    if (this.catalog.isListed) return false
    const claimed = [...mentions].sort((a, b) => a.start - b.start)
    if (config.allowPlainTitleMentions && atOutside(text, claimed)) return true
    const ids = new Set<string>()
    for (const { reference } of claimed) if (reference !== undefined && reference.sessionId !== target.id) ids.add(reference.sessionId)
    if (config.allowBareSessionIds) for (const bare of scanBareSessionIds(text, claimed)) if (bare.id !== target.id) ids.add(bare.id)
    return ids.size > STORAGE_READS_PER_TEXT
  }

  private check(target: ReferenceTarget, config: Config, source: { readonly sessionId: string; readonly label: string; readonly session: CatalogedSession | undefined }): ReferenceFailure | undefined {
    const { sessionId, label, session } = source
    if (sessionId === target.id) return refusal('self-reference', { sessionId, label })
    if (session !== undefined && isInScope(config.scope, target, session)) return undefined
    // A session the scope showed until it left the index is gone, which the user may know: it was theirs to see.
    const departed = session === undefined ? this.catalog.departed(sessionId) : undefined
    if (departed !== undefined && isInScope(config.scope, target, departed)) return refusal('not-found', { sessionId, label })
    return refusal(config.scope === 'workspace' ? 'out-of-scope' : 'not-found', { sessionId, label })
  }
}
