/**
 * The session header's Find in session button.
 * @module @wishp3/dsh-sessions/client/find/FindButton
 */
import { IconSearchOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { FindButtonProps } from '../contract.ts'
// The header's buttons look alike: this one takes the copy buttons' style.
import css from '../copy/HeaderCopyActions.module.css'

/** Renders the button; it opens the bar under itself, or closes it. */
export function FindButton(props: FindButtonProps) {
  const { t, sessionId } = props
  return (
    <button
      type="button"
      className={css.button}
      aria-label={t('find.open')}
      title={`${t('find.open')} (Ctrl+Shift+F)`}
      aria-keyshortcuts="Control+Shift+F Meta+Shift+F"
      data-dsh-sessions-find-open=""
      onClick={event => { props.toggle(sessionId, event.currentTarget) }}
    >
      <IconSearchOutline16 />
    </button>
  )
}
