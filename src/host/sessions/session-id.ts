/**
 * Whole session ids of the forms the rc.8 host mints: `session-<uuid>` (web, headless), `session-<32
 * hex>` (SDK client), `session-<n>` (core store default), `<agent>-session-<uuid>` (configured agents).
 * @module @wishp3/dsh-sessions/host/sessions/session-id
 */
const SESSION_ID = /^(?:[A-Za-z0-9_-]+-)?session-(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32}|[0-9]+)$/
const MAX_SESSION_ID = 256

/** Whether a string is a whole session id; a string over 256 characters never is, so a check of hostile input stays bounded. */
export function isSessionId(value: string): boolean {
  return value.length <= MAX_SESSION_ID && SESSION_ID.test(value)
}
