/**
 * The reference dock above the composer: for each session chip of the draft,
 * what its snapshot will add to the context (size, token estimate, whether
 * it is cut to fit) or why it cannot be attached, kept current while the
 * draft changes; and, after a send, which references the host could not
 * attach and why. A rejected message comes back into an empty composer.
 * Titles are text and are clamped by style only, with the whole title on hover.
 * @module @wishp3/dsh-sessions/client/references/ReferenceDock
 */
import { useEffect, useMemo, useState } from 'react'
import type { Outcome, PreflightResponse, SendCheckCode, SourceOutcome } from '../../shared/wire.ts'
import type { DockChip, ReferenceDockProps } from '../contract.ts'
import { decodeChipRef } from '../core/chip-ref.ts'
import { formatSize, formatTokens } from '../core/cost.ts'
import { failureKey } from '../mention/failure.ts'
import css from './ReferenceDock.module.css'

/** Milliseconds the dock waits for the draft to settle before measuring. */
const SETTLE_MS = 150

/** Notices kept on screen at most. */
const MAX_NOTICES = 3

function chipsOf(input: ReferenceDockProps['input'], source: string): DockChip[] {
  const chips: DockChip[] = []
  for (const occurrence of input.occurrences) {
    if (occurrence.source !== source) continue
    const ref = decodeChipRef(occurrence.ref)
    if (ref?.kind === 'session' && !chips.some(chip => chip.sessionId === ref.citedSessionId)) {
      chips.push({ sessionId: ref.citedSessionId, label: ref.label, mention: ref.mention })
    }
  }
  return chips
}

/**
 * Renders the dock.
 * @param props - copy, draft chips, the measuring and outcome faces.
 * @returns the dock, or nothing while there is nothing to show.
 */
export function ReferenceDock(props: ReferenceDockProps) {
  const { t } = props
  const chips = useMemo(() => chipsOf(props.input, props.source), [props.input, props.source])
  const key = chips.map(chip => chip.mention).join('\n')
  const [measured, setMeasured] = useState<{ key: string; response: PreflightResponse } | undefined>(undefined)
  const [notices, setNotices] = useState<readonly Outcome[]>([])

  useEffect(() => {
    if (chips.length === 0) return undefined
    const abort = new AbortController()
    const timer = setTimeout(() => {
      props.measure(chips, abort.signal).then(response => {
        if (!abort.signal.aborted) setMeasured({ key, response })
      }, () => {})
    }, SETTLE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [key])

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
  return (
    <section className={css.dock} aria-label={t('dock.label')} data-dsh-sessions-reference-dock="">
      {notices.map(outcome => (
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
                    <span className={css.title} title={chip.label}>{chip.label}</span>
                    <span className={found !== undefined && !found.ok ? css.blocked : css.cost} role="status">{costText(found)}</span>
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
