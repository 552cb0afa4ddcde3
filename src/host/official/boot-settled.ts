/**
 * When the host's boot has settled.
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

/** Resolves once the host's boot has settled. */
export function bootSettled(ctx: Context): Promise<void> {
  const loader: unknown = ctx.get('loader')
  if (!isSettlingLoader(loader)) return Promise.resolve()
  return loader.await().then(() => undefined, () => undefined)
}
