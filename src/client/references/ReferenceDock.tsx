/**
 * The reference dock above the composer: for each session chip of the draft, what its snapshot will
 * add to the context (size, token estimate, whether it is cut to fit) or why it cannot be attached,
 * kept current while the draft changes; and, after a send, which references the host could not attach
 * and why.
 * @module @wishp3/dsh-sessions/client/references/ReferenceDock
 */
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { countNumbers, formatMessageReference, MESSAGE_REFERENCE_SCHEME, scanMessageReferences } from '../../shared/message-reference.ts'
import type { Outcome, PreflightResponse, SendCheckCode, SourceMessagesResponse, SourceOutcome } from '../../shared/wire.ts'
import type { DockChip, ReferenceDockProps } from '../contract.ts'
import { decodeChipRef } from '../core/chip-ref.ts'
import { formatSize, formatTokens } from '../core/cost.ts'
import { failedChipStyle } from '../core/failed-chips.ts'
import { listedLabels } from '../core/label.ts'
import { lastTurns, narrowedChip } from '../core/narrowing.ts'
import { failureKey } from '../mention/failure.ts'
import css from './ReferenceDock.module.css'


/** Notices kept on screen at most. */
const MAX_NOTICES = 3

function chipsOf(input: ReferenceDockProps['input'], source: string): DockChip[] {
  const chips: DockChip[] = []
  for (const occurrence of input.occurrences) {
    if (occurrence.source !== source) continue
    const ref = decodeChipRef(occurrence.ref)
    if (ref?.kind === 'session' && !chips.some(chip => chip.sessionId === ref.citedSessionId)) {
      chips.push({ sessionId: ref.citedSessionId, label: ref.label, mention: ref.mention, occurrenceId: occurrence.occurrenceId })
    }
  }
  return chips
}

/** The narrowing choices of a chip's row. */
type Reach = 'whole' | 'last-1' | 'last-3' | 'choose' | 'part' | 'agent'

/** Whether a chip's mention is a pointer the agent reads. */
const isPointer = (mention: string): boolean => scanMessageReferences(mention)[0]?.reference?.agent === true

/** A chip's label without the messages a part chip names. */
const baseLabel = (label: string): string => label.replace(/ · #[^·]*$/u, '')

/** The chip that lets the agent read a source. */
function pointerChip(chip: DockChip): { sessionId: string; label: string; mention: string } {
  const label = baseLabel(chip.label)
  return { sessionId: chip.sessionId, label, mention: formatMessageReference({ sessionId: chip.sessionId, selection: [], agent: true, label }) }
}

/** What a chip's row shows of its narrowing. */
type Narrowing =
  | { readonly kind: 'idle' }
  | { readonly kind: 'loading' }
  | { readonly kind: 'failed'; readonly text: string }
  | { readonly kind: 'choosing'; readonly messages: SourceMessagesResponse; readonly chosen: ReadonlySet<number> }

/** What a part chip holds, as its narrowing choice names it: how many messages, not the label the chip shows already. */
function partWords(label: string, t: ReferenceDockProps['t']): string {
  const count = countNumbers(label)
  if (count === undefined) return label
  return count === 1 ? t('narrow.partOne') : t('narrow.part', { n: String(count) })
}

/** One chip's narrowing control: a choice of how much of the source to cite, and, for "choose messages", a list of the latest messages to tick. */
function NarrowControl(props: { chip: DockChip; dock: ReferenceDockProps; agentTools: boolean; onChosen: () => void }) {
  const { chip, dock } = props
  const { t } = dock
  const [state, setState] = useState<Narrowing>({ kind: 'idle' })
  const reach: Reach = isPointer(chip.mention) ? 'agent' : chip.mention.includes(MESSAGE_REFERENCE_SCHEME) ? 'part' : 'whole'
  const fail = (key: 'narrow.failed' | 'narrow.empty') => { setState({ kind: 'failed', text: t(key) }) }
  async function choose(next: Reach): Promise<void> {
    if (next === reach || next === 'part') return
    props.onChosen()
    if (next === 'agent') {
      setState({ kind: 'idle' })
      dock.replace(chip.occurrenceId, pointerChip(chip))
      return
    }
    setState({ kind: 'loading' })
    if (next === 'whole') {
      const mention = await dock.wholeMention(chip.sessionId).catch(() => undefined)
      if (mention === undefined) return fail('narrow.failed')
      setState({ kind: 'idle' })
      dock.replace(chip.occurrenceId, { sessionId: chip.sessionId, label: baseLabel(chip.label), mention })
      return
    }
    let listed: SourceMessagesResponse
    try {
      listed = await dock.messages(chip.sessionId, AbortSignal.timeout(10_000))
    } catch {
      // The dock says the narrowing failed; the chip stays whole.
      return fail('narrow.failed')
    }
    if (listed.messages.length === 0) return fail('narrow.empty')
    if (next === 'choose') {
      setState({ kind: 'choosing', messages: listed, chosen: new Set() })
      return
    }
    apply(listed, lastTurns(listed.messages, next === 'last-1' ? 1 : 3).map(message => message.seq))
  }
  function apply(listed: SourceMessagesResponse, seqs: readonly number[]): void {
    const chosen = listed.messages.filter(message => seqs.includes(message.seq))
    if (chosen.length === 0) return
    try {
      const narrowed = narrowedChip(chip.sessionId, listed.title, chosen)
      setState({ kind: 'idle' })
      dock.replace(chip.occurrenceId, { sessionId: chip.sessionId, ...narrowed })
    } catch {
      // The dock says the narrowing failed; the chip stays as it was.
      fail('narrow.failed')
    }
  }
  return (
    <>
      <select
        className={css.reach}
        aria-label={t('narrow.label')}
        value={reach}
        disabled={state.kind === 'loading'}
        onChange={event => { void choose(event.currentTarget.value as Reach) }}
      >
        <option value="whole">{t('narrow.whole')}</option>
        <option value="last-1">{t('narrow.lastTurn')}</option>
        <option value="last-3">{t('narrow.lastTurns', { n: '3' })}</option>
        <option value="choose">{t('narrow.choose')}</option>
        {/* Without the session tools the agent cannot read it: offered, disabled, with the reason in its words. */}
        <option value="agent" disabled={!props.agentTools && reach !== 'agent'}>{t(props.agentTools ? 'narrow.agent' : 'narrow.agentOff')}</option>
        {reach === 'part' ? <option value="part">{partWords(chip.label, t)}</option> : null}
      </select>
      {state.kind === 'failed' ? <span className={css.blocked} role="alert">{state.text}</span> : null}
      {state.kind === 'choosing'
        ? (
            <fieldset className={css.choose} aria-label={t('narrow.choose')}>
              <ol className={css.messages}>
                {state.messages.messages.map(message => (
                  <li key={message.seq}>
                    <label className={css.message}>
                      <input
                        type="checkbox"
                        checked={state.chosen.has(message.seq)}
                        onChange={event => {
                          const chosen = new Set(state.chosen)
                          if (event.currentTarget.checked) chosen.add(message.seq)
                          else chosen.delete(message.seq)
                          setState({ ...state, chosen })
                        }}
                      />
                      <span className={css.number}>#{message.number}</span>
                      <span className={css.excerpt}>{message.excerpt}</span>
                    </label>
                  </li>
                ))}
              </ol>
              <button type="button" className={css.action} disabled={state.chosen.size === 0} onClick={() => { apply(state.messages, [...state.chosen]) }}>
                {t('narrow.apply')}
              </button>
              <button type="button" className={css.action} onClick={() => { setState({ kind: 'idle' }) }}>{t('narrow.cancel')}</button>
            </fieldset>
          )
        : null}
    </>
  )
}

/** Renders the dock. `props`: copy, draft chips, the measuring and outcome faces. Returns the dock, or nothing while there is nothing to show. */
export function ReferenceDock(props: ReferenceDockProps) {
  const { t } = props
  const chips = useMemo(() => chipsOf(props.input, props.source), [props.input, props.source])
  const key = chips.map(chip => chip.mention).join('\n')
  const [measured, setMeasured] = useState<{ key: string; response: PreflightResponse } | undefined>(undefined)
  const [notices, setNotices] = useState<readonly Outcome[]>([])
  const reading = useSyncExternalStore(props.onReadingSettings, props.readingSettings)
  // Sources whose row the user chose from: the default no longer applies to them.
  const chosen = useRef(new Set<string>())

  // Under `referenceMode` `agent`, a whole-session chip becomes a pointer as it appears.
  useEffect(() => {
    if (reading.referenceMode !== 'agent' || !reading.agentTools) return
    for (const chip of chips) {
      if (chosen.current.has(chip.sessionId) || chip.mention.includes(MESSAGE_REFERENCE_SCHEME)) continue
      chosen.current.add(chip.sessionId)
      props.replace(chip.occurrenceId, pointerChip(chip))
    }
  }, [key, reading.referenceMode, reading.agentTools])

  // Measured as soon as the draft's chips change (a chip picked, pasted or removed); a change under way cancels the measure before it.
  // A refused send measures the chips again: a source that failed at the send shows failed, not as it was picked.
  const [refusals, setRefusals] = useState(0)
  useEffect(() => props.onRefused(() => { setRefusals(count => count + 1) }), [])
  useEffect(() => {
    if (chips.length === 0) return undefined
    const abort = new AbortController()
    props.measure(chips, abort.signal).then(response => {
      if (!abort.signal.aborted) setMeasured({ key, response })
    }, () => {})
    return () => { abort.abort() }
  }, [key, refusals])

  useEffect(() => {
    const abort = new AbortController()
    props.watch(outcome => {
      if (outcome.kind === 'rejected' && outcome.text !== undefined) props.restore(outcome.text)
      setNotices(current => [...current, outcome].slice(-MAX_NOTICES))
    }, abort.signal)
    return () => { abort.abort() }
  }, [])

  if (chips.length === 0 && notices.length === 0) return null
  const sources = measured?.key === key ? measured.response.sources : undefined
  const tooMany = measured?.key === key && !measured.response.ok && measured.response.code === 'too-many'
  const reason = (code: SendCheckCode | undefined, label: string) => t(failureKey(code), { label })
  // The composer marks the chips of a failing source too, every occurrence of it.
  const failing = new Set(sources?.filter(source => !source.ok).map(source => source.sessionId))
  const marks = failedChipStyle(failing.size === 0 ? [] : props.input.occurrences.flatMap(occurrence => {
    if (occurrence.source !== props.source) return []
    const ref = decodeChipRef(occurrence.ref)
    return ref?.kind === 'session' && failing.has(ref.citedSessionId) ? [occurrence.occurrenceId] : []
  }))
  return (
    <section className={css.dock} aria-label={t('dock.label')} data-dsh-sessions-reference-dock="">
      {marks === '' ? null : <style data-dsh-sessions-failed-chips="">{marks}</style>}
      {notices.map(outcome => outcome.kind === 'ids-as-text' || outcome.kind === 'same-source'
        ? (
            // One quiet line, however many ids a pasted log held: how many, never which; or which chips the text named again.
            <div key={outcome.id} className={css.quiet} role="status">
              {outcome.kind === 'same-source'
                ? t('outcome.sameSource', { labels: listedLabels(outcome.labels ?? [], props.locale(), n => t('outcome.moreLabels', { n: n.toLocaleString(props.locale()) })) })
                : (outcome.count ?? 0) === 1 ? t('outcome.idsAsTextOne') : t('outcome.idsAsText', { n: (outcome.count ?? 0).toLocaleString(props.locale()) })}
              <button type="button" className={css.action} onClick={() => { setNotices(current => current.filter(known => known.id !== outcome.id)) }}>
                {t('outcome.dismiss')}
              </button>
            </div>
          )
        : (
        <div key={outcome.id} className={css.notice} role="alert">
          <span className={css.noticeTitle}>{t(outcome.kind === 'rejected' ? 'outcome.rejected' : 'outcome.notAttached')}</span>
          <ul className={css.reasons}>
            {outcome.references.map((reference, n) => (
              <li key={n}>{reference.code === 'too-many' ? t('outcome.tooMany', { label: reference.label }) : reason(reference.code, reference.label)}</li>
            ))}
          </ul>
          {/* The message itself stays on screen too, in case the composer was not empty to take it back. */}
          {outcome.kind === 'rejected' && outcome.text !== undefined ? <pre className={css.unsent}>{outcome.text}</pre> : null}
          <button type="button" className={css.action} onClick={() => { setNotices(current => current.filter(known => known.id !== outcome.id)) }}>
            {t('outcome.dismiss')}
          </button>
        </div>
          ))}
      {chips.length > 0
        ? (
            <ul className={css.chips}>
              {chips.map(chip => {
                const found: SourceOutcome | undefined = sources?.find(source => source.sessionId === chip.sessionId)
                return (
                  <li key={chip.sessionId} className={css.chip} data-session-id={chip.sessionId}>
                    <button type="button" className={css.title} title={chip.label} aria-label={t('source.open', { label: chip.label })} onClick={() => { props.open(chip.sessionId) }}>
                      {chip.label}
                    </button>
                    <span className={found !== undefined && !found.ok ? css.blocked : css.cost} role="status">{costText(found)}</span>
                    <NarrowControl chip={chip} dock={props} agentTools={reading.agentTools} onChosen={() => { chosen.current.add(chip.sessionId) }} />
                  </li>
                )
              })}
            </ul>
          )
        : null}
      {tooMany ? <p className={css.blocked} role="alert">{t('error.tooMany')}</p> : null}
    </section>
  )

  function costText(found: SourceOutcome | undefined): string {
    if (found === undefined) return t('cost.pending')
    if (!found.ok) return reason(found.code, found.label)
    const size = t('cost.size', {
      size: formatSize(found.bytes ?? 0, props.locale()),
      tokens: found.tokens === undefined ? '?' : formatTokens(found.tokens, props.locale()),
    })
    return found.truncated === true ? `${size} · ${t('cost.truncated')}` : size
  }
}
