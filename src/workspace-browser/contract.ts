/**
 * What the patched workspace browser asks of its host page: the row-menu
 * module it requires as `@wishp3/dsh-sessions/row-menu`. Types only; the
 * copy feature (`client/copy/row-menu.tsx`) implements it.
 * @module @wishp3/dsh-sessions/workspace-browser/contract
 */

/** One item appended to a session row's ⋯ menu. */
export interface RowMenuItem {
  readonly id: string
  /** Its text in the UI language. */
  readonly label: string
  readonly icon: JSX.Element
}

/** The row-menu module the patched bundle requires. */
export interface RowMenu {
  /** Items appended to every non-blank session row's menu. */
  items(): RowMenuItem[]
  /** Called when a row's closed menu is being opened. */
  opening(sessionId: string): void
  /** Called with every selected item id and the row's session id. */
  select(id: string, sessionId: string): void
}
