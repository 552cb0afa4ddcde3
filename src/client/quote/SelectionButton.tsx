/**
 * The floating "Add to chat" button above a quotable selection.
 * @module @wishp3/dsh-sessions/client/quote/SelectionButton
 */
import { useEffect, useState } from 'react'
import type { SelectionButtonProps } from '../contract.ts'
import { quotableSelection, type QuotableSelection } from './selection.ts'
import { listenOnPage } from '../official/page-writes.ts'
import css from './SelectionButton.module.css'

/** Renders the button, or nothing. `props`: copy, the phase check and the quote action. */
export function SelectionButton(props: SelectionButtonProps) {
  const [selection, setSelection] = useState<QuotableSelection | undefined>(undefined)
  useEffect(() => {
    const update = () => { setSelection(quotableSelection(document.getSelection())) }
    const stopSelections = listenOnPage('selectionchange', update)
    window.addEventListener('scroll', update, true)
    window.addEventListener('resize', update)
    return () => {
      stopSelections()
      window.removeEventListener('scroll', update, true)
      window.removeEventListener('resize', update)
    }
  }, [])
  if (selection === undefined || !props.canQuote()) return null
  const top = Math.max(8, selection.rect.top - 40)
  const left = Math.max(8, selection.rect.left + selection.rect.width / 2)
  return (
    <button
      type="button"
      className={css.button}
      style={{ top, left }}
      data-dsh-sessions-quote-button=""
      onMouseDown={event => { event.preventDefault() }}
      onClick={() => {
        props.quote(selection.text)
        setSelection(undefined)
      }}
    >
      {props.t('quote.add')}
    </button>
  )
}
