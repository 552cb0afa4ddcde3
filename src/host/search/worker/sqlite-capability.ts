/**
 * Whether this Node.js can hold the content index: `node:sqlite`, with FTS5 and contentless deletes.
 * Where it cannot, there is no content index and search is by title only (see `content-search.ts`).
 * @module @wishp3/dsh-sessions/host/search/worker/sqlite-capability
 */

/** The `node:sqlite` module, where this Node.js has it with FTS5. */
export type SqliteModule = typeof import('node:sqlite')

/** Loads `node:sqlite` and checks that it has FTS5 with contentless deletes. Returns the module, or why it cannot serve (older Node.js, a build without FTS5). */
export async function loadSqlite(): Promise<{ ok: true; sqlite: SqliteModule } | { ok: false; reason: string }> {
  let sqlite: SqliteModule
  try {
    sqlite = await import('node:sqlite')
  } catch (error) {
    return { ok: false, reason: `node:sqlite is not available: ${error instanceof Error ? error.message : String(error)}` }
  }
  try {
    const probe = new sqlite.DatabaseSync(':memory:')
    probe.exec("CREATE VIRTUAL TABLE probe USING fts5(body, content='', contentless_delete=1, tokenize='ascii', detail=none)")
    probe.close()
  } catch (error) {
    return { ok: false, reason: `SQLite has no usable FTS5: ${error instanceof Error ? error.message : String(error)}` }
  }
  return { ok: true, sqlite }
}
