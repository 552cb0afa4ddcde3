/**
 * Sent references that lead back to their source. rc.8 shows a sent session reference as a label in
 * the user's bubble that is neither a link nor carries the session id.
 * @module @wishp3/dsh-sessions/client/references/sent-references
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { SessionId } from '@deepseek-ai/dsh-session/types'
import type { SentReference, SinceResponse, SourceSince } from '../../shared/wire.ts'
import { sentSources, sourceOfChip } from '../core/snapshot-sources.ts'
import type { SessionsLookup } from '../locales.ts'
import { openAtMessage } from '../navigation/open-at-message.ts'
import { type ChatView, followChatRows } from '../official/chat-rows.ts'
import { chatRows, closestMarked, sentSessionChips } from '../official/markup.ts'
import { listenOnPage, markSentReference, sinceButtonAfter, writeSinceButton } from '../official/page-writes.ts'
import styles from './SentReference.module.css'

/** What the decoration reads. */
export interface SentReferencesDeps {
  readonly sessions: ClientContext['sessions']
  since(sources: readonly SentReference[], signal: AbortSignal): Promise<SinceResponse>
  readonly t: SessionsLookup
  locale(): string
}

/** Milliseconds a source's answer is trusted before it is asked again. */
const SINCE_TTL_MS = 15_000

/** Most sent references asked about at once (the route's limit). */
const SINCE_BATCH = 32

const SOURCE_ATTR = 'data-dsh-sessions-source'
const SINCE_ATTR = 'data-dsh-sessions-since'

interface Known {
  readonly at: number
  readonly answer: SourceSince | undefined
}

/** Decorates the sent references of the session on screen until disposed. `deps`: the sessions service, the since route and the locale. */
export function decorateSentReferences(deps: SentReferencesDeps): () => void {
  const known = new Map<string, Known>()
  const asking = new Set<string>()
  const abort = new AbortController()
  const keyOf = (sessionId: string, captured: number | null) => `${sessionId}\n${captured ?? ''}`

  function ask(sources: SentReference[]): void {
    for (let start = 0; start < sources.length; start += SINCE_BATCH) {
      const batch = sources.slice(start, start + SINCE_BATCH)
      for (const source of batch) asking.add(keyOf(source.sessionId, source.capturedThroughSeq))
      deps.since(batch, abort.signal).then(response => {
        for (const answer of response.sources) known.set(keyOf(answer.sessionId, answer.capturedThroughSeq), { at: Date.now(), answer })
      }, () => {
        for (const source of batch) known.set(keyOf(source.sessionId, source.capturedThroughSeq), { at: Date.now(), answer: undefined })
      }).finally(() => {
        for (const source of batch) asking.delete(keyOf(source.sessionId, source.capturedThroughSeq))
        if (!abort.signal.aborted) rows.schedule()
      })
    }
  }

  let shown: string | undefined
  function decorate({ sessionId: current, nodes }: ChatView): void {
    // Coming back to a session is when its sources are most likely to have moved on: ask afresh.
    if (current !== shown) known.clear()
    shown = current
    if (nodes === undefined) return
    const toAsk: SentReference[] = []
    for (const [key, sources] of sentSources(nodes)) {
      for (const row of chatRows(key)) {
        for (const chip of sentSessionChips(row)) {
          const source = sourceOfChip(sources, chip.textContent ?? '')
          if (source === undefined) continue
          markSentReference(chip, { attr: SOURCE_ATTR, source: source.sessionId, seqs: source.messageSeqs ?? [], label: deps.t('source.open', { label: source.label }), className: styles.link! })
          const sinceKey = keyOf(source.sessionId, source.capturedThroughSeq)
          const found = known.get(sinceKey)
          if ((found === undefined || Date.now() - found.at > SINCE_TTL_MS) && !asking.has(sinceKey) && !toAsk.some(asked => keyOf(asked.sessionId, asked.capturedThroughSeq) === sinceKey)) {
            toAsk.push({ sessionId: source.sessionId, capturedThroughSeq: source.capturedThroughSeq })
          }
          const answer = found?.answer
          if (answer === undefined || answer.newMessages === 0 || answer.firstNewSeq === undefined) continue
          const time = source.capturedAt === undefined ? '?' : new Intl.DateTimeFormat(deps.locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(source.capturedAt)
          writeSinceButton(sinceButtonAfter(chip, SINCE_ATTR, styles.since!), {
            attrs: { [SINCE_ATTR]: String(answer.firstNewSeq), [SOURCE_ATTR]: source.sessionId },
            text: deps.t('since.marker'),
            title: answer.newMessages === 1 ? deps.t('since.tooltipOne', { time }) : deps.t('since.tooltip', { time, n: answer.newMessages.toLocaleString(deps.locale()) }),
          })
        }
      }
    }
    if (toAsk.length > 0) ask(toAsk)
  }

  function open(element: HTMLElement): void {
    const sessionId = element.getAttribute(SOURCE_ATTR)
    if (sessionId === null) return
    const since = element.getAttribute(SINCE_ATTR)
    const seqs = since !== null ? [Number(since)] : (element.dataset.dshSessionsSeqs ?? '').split(',').filter(Boolean).map(Number)
    const [first, ...rest] = seqs
    if (first === undefined || !Number.isSafeInteger(first)) deps.sessions.open(SessionId(sessionId))
    else void openAtMessage(deps.sessions, { sessionId, seq: first }, { alsoMark: rest })
  }
  const target = (event: Event) => (event.target instanceof Element ? closestMarked(event.target, SOURCE_ATTR) : null)
  const onClick = (event: MouseEvent) => {
    const element = target(event)
    if (element === null) return
    event.preventDefault()
    event.stopPropagation()
    open(element)
  }
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== 'Enter' && event.key !== ' ') return
    const element = target(event)
    if (element === null || element !== event.target) return
    event.preventDefault()
    open(element)
  }
  const stopClicks = listenOnPage('click', onClick)
  const stopKeys = listenOnPage('keydown', onKey)
  const rows = followChatRows(deps.sessions, decorate)
  const refresh = setInterval(rows.schedule, SINCE_TTL_MS)
  return () => {
    abort.abort()
    rows.dispose()
    clearInterval(refresh)
    stopClicks()
    stopKeys()
  }
}
