/**
 * The related-sessions row by the composer: once the draft says enough and typing pauses, up to three
 * past sessions the draft is about, each with its title, age and the excerpt that matched; a click
 * attaches one as a chip. A newer keystroke cancels the request in flight, an unchanged draft asks
 * nothing, and the row can be dismissed for the draft (until the composer is empty again, or holds a draft
 * that begins otherwise).
 * @module @wishp3/dsh-sessions/client/related/RelatedRow
 */
import { IconCloseOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import type { RelatedSession } from '../../shared/wire.ts'
import type { RelatedRowProps } from '../contract.ts'
import { formatAge } from '../core/age.ts'
import { DRAFT_CHARS, draftStart, isDismissedDraft, isTelling } from '../core/related-draft.ts'
import { citedByChips } from './draft-chips.ts'
import css from './RelatedRow.module.css'

/** Pause after the last keystroke before the host is asked. */
const TYPING_PAUSE_MS = 600

/** Renders the row, or nothing. */
export function RelatedRow(props: RelatedRowProps) {
  const { t } = props
  const settings = useSyncExternalStore(props.onReadingSettings, props.readingSettings)
  const [shown, setShown] = useState<{ key: string; sessions: readonly RelatedSession[] } | undefined>(undefined)
  const [dismissedAt, setDismissedAt] = useState<string | undefined>(undefined)
  const answered = useRef<string | undefined>(undefined)
  const text = props.input.draft.slice(0, DRAFT_CHARS)
  const cited = citedByChips(props.input.occurrences, props.source)
  const key = `${cited.join(' ')}\u0000${text}`
  const dismissed = isDismissedDraft(text, dismissedAt)
  const wanted = settings.suggestRelated && !dismissed && isTelling(text)
  const empty = props.input.draft.trim() === ''

  // A sent or cleared draft starts over: the last answer goes, and the row may come back for the next draft.
  useEffect(() => {
    if (!empty) return
    setDismissedAt(undefined)
    setShown(undefined)
    answered.current = undefined
  }, [empty])

  // Asked once typing pauses; a newer keystroke cancels the request in flight; a draft already answered asks nothing.
  useEffect(() => {
    if (!wanted || answered.current === key) return
    const abort = new AbortController()
    const timer = setTimeout(() => {
      props.ask(text, cited, abort.signal).then(answer => {
        if (abort.signal.aborted) return
        answered.current = key
        setShown({ key, sessions: answer.sessions })
      }, () => {})
    }, TYPING_PAUSE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [key, wanted])

  const sessions = wanted ? (shown?.sessions ?? []).filter(session => !cited.includes(session.sessionId)) : []
  if (sessions.length === 0) return null
  const now = Date.now()
  return (
    <div className={css.row} role="group" aria-label={t('related.title')} data-dsh-sessions-related="">
      <span className={css.heading}>{t('related.title')}</span>
      <ul className={css.list}>
        {sessions.map(session => (
          <li key={session.sessionId}>
            <button
              type="button"
              className={css.item}
              title={t('related.attach', { label: session.label })}
              data-dsh-sessions-related-session={session.sessionId}
              onClick={() => { props.attach(session) }}
            >
              <span className={css.title}>{session.label}</span>
              <span className={css.age}>{formatAge(session.createdAt, now, props.locale())}</span>
              <span className={css.excerpt}>{props.excerpt(session.snippet)}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className={css.dismiss} aria-label={t('related.dismiss')} title={t('related.dismiss')} onClick={() => { setDismissedAt(draftStart(text)) }}>
        <IconCloseOutline16 />
      </button>
    </div>
  )
}
