/**
 * The host's sessions by the plain ids the plugin keeps: one live in this process, and a cold one's
 * title from the projection cache or the query service.
 * @module @wishp3/dsh-sessions/host/official/live-sessions
 */
import type { Context } from '@deepseek-ai/cordis'
import type { Session, SessionHeader } from '@deepseek-ai/dsh-session'
import type {} from '@deepseek-ai/dsh-session-projection-cache'

/** The session live in this process with this id, or `undefined`. */
export function liveSession(ctx: Context, id: string): Session | undefined {
  return ctx.sessions.get(id as SessionHeader['id'])
}

/** A cold session's title as the sidebar reads it: from the projection cache where it runs, else from the query service. */
export async function coldTitle(ctx: Context, id: string, signal: AbortSignal): Promise<string | undefined> {
  const cache = ctx.get('sessionProjectionCache')
  const title = cache !== undefined
    ? (await cache.coldSnapshot(id as SessionHeader['id'], signal)).values as { title?: string | null }
    : await ctx.sessionQuery.readTitle(id as SessionHeader['id'], signal)
  return typeof title?.title === 'string' ? title.title : undefined
}
