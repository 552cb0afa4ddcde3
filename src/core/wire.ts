/**
 * Bodies of the `/dsh-sessions` routes, shared by the host routes and the
 * browser's calls.
 * @module @wishp3/dsh-sessions/core/wire
 */

/** One reference candidate. */
export interface Candidate {
  readonly sessionId: string
  /** Latest title, or the id. */
  readonly label: string
  readonly cwd?: string
  readonly createdAt: number
  /** Canonical `@[label](dsh-session:…)` mention. */
  readonly mention: string
}

/** `POST /dsh-sessions/candidates` answer. */
export interface CandidatesResponse {
  readonly candidates: readonly Candidate[]
}

/** `POST /dsh-sessions/preflight` answer. */
export type PreflightResponse =
  | { readonly ok: true; readonly text: string; readonly references: readonly { sessionId: string; label?: string }[] }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly sessionId?: string }

/** Error body of every refused request. */
export interface ErrorResponse {
  readonly error: { readonly code: string; readonly message: string }
}
