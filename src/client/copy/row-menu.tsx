/**
 * What the patched session row adds to its ⋯ menu.
 * @module @wishp3/dsh-sessions/client/copy/row-menu
 */
import { IconCopyOutline16, IconLinkOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { RowMenu } from '../../workspace-browser/contract.ts'
import type { SessionsKey } from '../locales.ts'
import { sessionRow } from '../official/markup.ts'
import type { CopyActions } from './actions.ts'

/** Menu id of "Copy session ID". */
export const COPY_SESSION_ID = 'dsh-sessions.copy-id'

/** Menu id of "Copy reference". */
export const COPY_REFERENCE = 'dsh-sessions.copy-reference'

/** Builds the module. `rowOf`: the row element of a session, the toast's anchor. */
export function createRowMenu(
  t: (key: SessionsKey) => string,
  actions: CopyActions,
  rowOf: (sessionId: string) => HTMLElement | null = sessionRow,
): RowMenu {
  return {
    items: () => [
      { id: COPY_SESSION_ID, label: t('copy.id'), icon: <IconCopyOutline16 /> },
      { id: COPY_REFERENCE, label: t('copy.reference'), icon: <IconLinkOutline16 /> },
    ],
    opening: sessionId => { actions.prefetch(sessionId) },
    select(id, sessionId) {
      if (id === COPY_SESSION_ID) actions.copyId(sessionId, rowOf(sessionId), 'right')
      if (id === COPY_REFERENCE) actions.copyReference(sessionId, rowOf(sessionId), 'right')
    },
  }
}
