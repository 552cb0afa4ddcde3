/**
 * `@wishp3/dsh-sessions`, host half. The row `session-bridge` loads this entry;
 * the browser half ships as `./client` and is discovered through the
 * package's `dsh.client` declaration on the same row.
 * @module @wishp3/dsh-sessions
 */
export { Config } from './config.ts'
export type { FailureMode, ReferenceScope } from './config.ts'

/** Plugin name shown in the Loader and in Settings → Plugins. */
export const name = 'dsh-sessions'

/** Host plugin body. Cordis validates the row `config` against {@link Config} before it runs. */
export function apply(): void {}
