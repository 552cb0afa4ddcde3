/**
 * Sends the plugin refused in the page, by session: the `@` source reports each, and the reference
 * dock of that session measures its chips again, so a source that failed at the send shows as failed,
 * not as it measured when it was picked.
 * @module @wishp3/dsh-sessions/client/core/refused-sends
 */

/** The feed of refused sends. */
export class RefusedSends {
  private readonly listeners = new Set<(sessionId: string) => void>()

  /** Says a send of a session was refused. */
  report(sessionId: string): void {
    for (const listener of this.listeners) listener(sessionId)
  }

  /** Follows the refused sends of one session. */
  follow(sessionId: string, listener: () => void): () => void {
    const heard = (refused: string) => { if (refused === sessionId) listener() }
    this.listeners.add(heard)
    return () => { this.listeners.delete(heard) }
  }
}
