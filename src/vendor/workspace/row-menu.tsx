/**
 * What the patched session row adds to its ⋯ menu (W2): "Copy session ID".
 * Selecting it copies the row's native session id inside the click, then a
 * toast at that row says copied or failed, and is gone after 4 s (the host
 * `Toast`'s own hold and fade).
 * @module @wishp3/dsh-sessions/vendor/workspace/row-menu
 */
import { createRoot } from 'react-dom/client'
import { IconCheckOutline16, IconCopyOutline16, IconWarningOutline16, Toast } from '@deepseek-ai/dsh-client-ui-primitives'
import type { SessionsKey } from '../../client/locales.ts'
import { copyText } from './clipboard.ts'

/** Menu id of the added item. */
export const COPY_SESSION_ID = 'dsh-sessions.copy-id'

/** The row-menu module the patched bundle requires. */
export interface RowMenu {
  /** Items appended to every non-blank session row's menu. */
  items(): { id: string; label: string; icon: JSX.Element }[]
  /** Called with every selected item id and the row's session id. */
  select(id: string, sessionId: string): void
}

function showToast(anchor: HTMLElement | null, text: string, ok: boolean): void {
  const host = document.createElement('div')
  host.dataset.dshSessionsRowToast = ok ? 'done' : 'failed'
  document.body.appendChild(host)
  const root = createRoot(host)
  root.render(
    <Toast
      text={text}
      icon={ok ? <IconCheckOutline16 /> : <IconWarningOutline16 />}
      anchor={anchor}
      onDone={() => {
        root.unmount()
        host.remove()
      }}
    />,
  )
}

/**
 * Builds the module.
 * @param t - the plugin's locale lookup.
 * @returns the row menu.
 */
export function createRowMenu(t: (key: SessionsKey) => string): RowMenu {
  return {
    items: () => [{ id: COPY_SESSION_ID, label: t('row.copyId'), icon: <IconCopyOutline16 /> }],
    select(id, sessionId) {
      if (id !== COPY_SESSION_ID) return
      const row = document.querySelector<HTMLElement>(`[data-dsh-session-row="${CSS.escape(sessionId)}"]`)
      void copyText(sessionId).then(ok => { showToast(row, t(ok ? 'row.copyId.done' : 'row.copyId.failed'), ok) })
    },
  }
}
