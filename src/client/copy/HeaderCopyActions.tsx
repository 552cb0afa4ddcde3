/**
 * The session header's copy buttons.
 * @module @wishp3/dsh-sessions/client/copy/HeaderCopyActions
 */
import { IconCopyOutline16, IconLinkOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { HeaderCopyActionsProps } from '../contract.ts'
import css from './HeaderCopyActions.module.css'

/** Renders the two buttons. */
export function HeaderCopyActions(props: HeaderCopyActionsProps) {
  const { t, sessionId } = props
  const prefetch = () => { props.prefetch(sessionId) }
  return (
    <div className={css.group} role="group" aria-label={t('copy.group')} data-dsh-sessions-header-copy="">
      <button
        type="button"
        className={css.button}
        aria-label={t('copy.id')}
        title={t('copy.id')}
        onClick={event => { props.copyId(sessionId, event.currentTarget) }}
      >
        <IconCopyOutline16 />
      </button>
      <button
        type="button"
        className={css.button}
        aria-label={t('copy.reference')}
        title={t('copy.reference')}
        onPointerEnter={prefetch}
        onFocus={prefetch}
        onClick={event => { props.copyReference(sessionId, event.currentTarget) }}
      >
        <IconLinkOutline16 />
      </button>
    </div>
  )
}
