/**
 * "Copy message reference" beside a message's own actions.
 * @module @wishp3/dsh-sessions/client/copy/MessageReferenceAction
 */
import { IconLinkOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { MessageReferenceActionProps } from '../contract.ts'
import css from './HeaderCopyActions.module.css'

/** Renders the button. `props`: the message, the copy face and the locale seat. */
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
