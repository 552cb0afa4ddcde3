/**
 * The find bar: typing asks the host for the session's matches (debounced; a newer query cancels the
 * one in flight); Enter and Shift+Enter step through them, each step opening the conversation at its
 * message; Escape closes the bar and leaves the view where it is.
 * @module @wishp3/dsh-sessions/client/find/FindBar
 */
import { IconChevronDownOutline14, IconChevronUpOutline14, IconCloseOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import { useEffect, useRef, useState } from 'react'
import type { FindBarProps } from '../contract.ts'
import { countOf, type FindPosition, positionOf, stepOf, withPage } from '../core/find-position.ts'
import css from './FindBar.module.css'

/** Pause after the last keystroke before the host is asked. */
const TYPING_PAUSE_MS = 150

/** Renders the bar of one session, placed where the outlet says; its state lives as long as the bar is open on that session. */
export function FindBar(props: FindBarProps) {
  const { t, sessionId } = props
  const [query, setQuery] = useState('')
  const [position, setPosition] = useState<FindPosition | undefined>(undefined)
  const [failed, setFailed] = useState(false)
  const input = useRef<HTMLInputElement>(null)
  const asking = useRef<AbortController | undefined>(undefined)

  useEffect(() => { input.current?.focus() }, [props.focusCount])
  useEffect(() => () => { asking.current?.abort() }, [])

  // A changed query is asked once typing pauses; the one in flight is cancelled.
  useEffect(() => {
    asking.current?.abort()
    setFailed(false)
    if (query.trim() === '') {
      setPosition(undefined)
      return
    }
    const abort = new AbortController()
    asking.current = abort
    const timer = setTimeout(() => {
      props.find({ sessionId, query, after: 0 }, abort.signal).then(
        page => { if (!abort.signal.aborted) setPosition(positionOf(page)) },
        () => { if (!abort.signal.aborted) setFailed(true) },
      )
    }, TYPING_PAUSE_MS)
    return () => {
      clearTimeout(timer)
      abort.abort()
    }
  }, [query, sessionId])

  const step = (direction: 1 | -1, from: FindPosition | undefined = position) => {
    if (from === undefined) return
    const next = stepOf(from, direction)
    if (next === undefined) return
    if ('load' in next) {
      const abort = new AbortController()
      asking.current?.abort()
      asking.current = abort
      props.find({ sessionId, query, after: next.load }, abort.signal).then(
        page => {
          if (abort.signal.aborted) return
          const loaded = withPage(from, page)
          // A page that adds nothing means the count was a lower bound that the end of the session met.
          if (page.matches.length === 0) setPosition({ ...loaded, total: loaded.matches.length, complete: true })
          else step(direction, loaded)
        },
        () => { if (!abort.signal.aborted) setFailed(true) },
      )
      return
    }
    const match = from.matches[next.index]!
    setPosition({ ...from, at: next.index })
    props.show(sessionId, match)
  }

  const count = countOf(position)
  const said = failed
    ? t('find.failed')
    : count === undefined ? ''
      : count === 'none' ? t('find.none')
        : position!.at < 0 ? t(count.more ? 'find.totalMore' : 'find.total', { total: String(count.total) })
          : t(count.more ? 'find.countMore' : 'find.count', { n: String(count.n), total: String(count.total) })

  return (
    <div className={css.bar} style={{ top: props.place.top, left: props.place.left }} role="search" aria-label={t('find.open')} data-dsh-sessions-find-bar="">
      <input
        ref={input}
        className={css.input}
        type="search"
        value={query}
        placeholder={t('find.input')}
        aria-label={t('find.input')}
        onChange={event => { setQuery(event.currentTarget.value) }}
        onKeyDown={event => {
          if (event.key === 'Escape') {
            event.preventDefault()
            props.close()
          } else if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
            event.preventDefault()
            step(event.shiftKey ? -1 : 1)
          }
        }}
      />
      <span className={css.count} aria-live="polite" data-dsh-sessions-find-count="">{said}</span>
      <button type="button" className={css.step} aria-label={t('find.previous')} title={t('find.previous')} disabled={count === undefined || count === 'none'} onClick={() => { step(-1) }}>
        <IconChevronUpOutline14 />
      </button>
      <button type="button" className={css.step} aria-label={t('find.next')} title={t('find.next')} disabled={count === undefined || count === 'none'} onClick={() => { step(1) }}>
        <IconChevronDownOutline14 />
      </button>
      <button type="button" className={css.step} aria-label={t('find.close')} title={t('find.close')} onClick={props.close}>
        <IconCloseOutline16 />
      </button>
    </div>
  )
}
