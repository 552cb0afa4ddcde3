/**
 * "Copy message reference" beside a message's own actions: copies the
 * reference to exactly that message of the session. Approaching the button
 * (pointer or focus) starts looking the reference up, so the click usually
 * copies it at once. The toast appears below the button.
 * @module @wishp3/dsh-sessions/client/copy/MessageReferenceAction
 */
import { IconLinkOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { MessageReferenceActionProps } from '../contract.ts'
import css from './HeaderCopyActions.module.css'

/**
 * Renders the button.
 * @param props - the message, the copy face and the locale seat.
 */
export function MessageReferenceAction(props: MessageReferenceActionProps) {
  const { t, messageId } = props
  const prefetch = () => { props.prefetch(messageId) }
  return (
    <button
      type="button"
      className={css.button}
      aria-label={t('copy.message')}
      title={t('copy.message')}
      data-dsh-sessions-message-reference={messageId}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={event => { props.copy(messageId, event.currentTarget) }}
    >
      <IconLinkOutline16 />
    </button>
  )
}
