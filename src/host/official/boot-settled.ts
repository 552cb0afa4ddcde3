/**
 * When the host's boot has settled. rc.8's web app announces its URL (what
 * supervisors and the browser take as the host being ready) once its
 * Loader's tree of rows has settled, `ctx.get('loader').await()`; this is
 * the same signal, so work that should not compete with the host's own start
 * can wait for it. Where the context has no Loader (one built by hand, as in
 * tests), the boot counts as settled at once; a boot that fails settles too.
 * @module @wishp3/dsh-sessions/host/official/boot-settled
 */
import type { Context } from '@deepseek-ai/cordis'

/** The part of the Loader service read here. */
interface SettlingLoader {
  await(): Promise<unknown>
}

function isSettlingLoader(value: unknown): value is SettlingLoader {
  return typeof (value as { await?: unknown } | null | undefined)?.await === 'function'
}

/**
 * Resolves once the host's boot has settled.
 * @param ctx - the plugin's context.
 * @returns a promise that never rejects.
 */
export function bootSettled(ctx: Context): Promise<void> {
  const loader: unknown = ctx.get('loader')
  if (!isSettlingLoader(loader)) return Promise.resolve()
  return loader.await().then(() => undefined, () => undefined)
}
