/**
 * The quote bar above the composer: one entry per quote chip of the draft, derived from the input
 * state on every render (no state of its own but which entries are expanded), so undo, redo, paste and
 * hand-deletion keep it in sync.
 * @module @wishp3/dsh-sessions/client/quote/QuoteBar
 */
import { useState } from 'react'
import type { QuoteBarProps } from '../contract.ts'
import { decodeQuoteRef, firstLine } from '../core/quote.ts'
import { quoteOccurrences } from './composer.ts'
import css from './QuoteBar.module.css'

/** Renders the bar. `props`: copy, input state and the remove action. Returns the bar, or nothing without quotes. */
export function QuoteBar(props: QuoteBarProps) {
  const { t } = props
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set())
  const quotes = quoteOccurrences(props.input)
  if (quotes.length === 0) return null
  return (
    <ul className={css.bar} aria-label={t('quote.bar')} data-dsh-sessions-quote-bar="">
      {quotes.map(occurrence => {
        const text = decodeQuoteRef(occurrence.ref)?.text ?? ''
        const open = expanded.has(occurrence.occurrenceId)
        const toggle = () => {
          const next = new Set(expanded)
          if (open) next.delete(occurrence.occurrenceId)
          else next.add(occurrence.occurrenceId)
          setExpanded(next)
        }
        return (
          <li key={occurrence.occurrenceId} className={css.entry}>
            <div className={css.row}>
              <span className={css.label}>{occurrence.label}</span>
              <span className={css.preview} title={firstLine(text)}>{firstLine(text)}</span>
              <button type="button" className={css.action} aria-expanded={open} onClick={toggle}>
                {t(open ? 'quote.collapse' : 'quote.expand')}
              </button>
              <button
                type="button"
                className={css.action}
                aria-label={`${t('quote.remove')}: ${occurrence.label}`}
                onClick={() => { props.remove(occurrence.occurrenceId) }}
              >
                {t('quote.remove')}
              </button>
            </div>
            {open ? <pre className={css.full}>{text}</pre> : null}
          </li>
        )
      })}
    </ul>
  )
}
