/**
 * Each route's request body, declared once as a schema (zod's mini build, the validator the host's own
 * packages use): a handler receives its route's typed request, and a body that is not one is refused
 * with `bad-request`, naming the first field that is wrong and what it must be. Unknown fields are
 * dropped; `null` is a value, never an absent field.
 * @module @wishp3/dsh-sessions/host/http/route-bodies
 */
import * as z from 'zod/mini'
import type { Route, RouteRequest } from '../../shared/wire.ts'
import { DshSessionsError } from '../errors.ts'
import { MAX_SIDEBAR_RESULTS } from '../search/sidebar-search.ts'
import { MAX_QUERY_LENGTH } from '../search/text/terms.ts'

/** Most sessions one titles request may name. */
const MAX_TITLE_IDS = 1000

/** Most sent references one `since` request may name. */
const MAX_SINCE = 32

/** Most chip ids one preflight, or one related request's `except`, may name. */
const MAX_CHIPS = 64

/** A schema's refusal: the words after the field's name. */
const mustBe = (what: string) => ({ error: `must be ${what}` })

const nonEmpty = z.string(mustBe('a non-empty string')).check(z.minLength(1, mustBe('a non-empty string')))

const text = z.string(mustBe('a string'))

/** A whole number from `min` (to `max`). */
function whole(min: number, max = Number.MAX_SAFE_INTEGER) {
  const says = mustBe(max === Number.MAX_SAFE_INTEGER ? `a whole number ≥ ${min}` : `a whole number from ${min} to ${max}`)
  return z.int(says).check(z.minimum(min, says), z.maximum(max, says))
}

/** A list of at most `max` session ids. */
function ids(max: number) {
  const says = mustBe(`a list of at most ${max} session ids`)
  return z.array(z.string(says), says).check(z.maxLength(max, says))
}

const sentReferences = (() => {
  const says = mustBe(`a list of at most ${MAX_SINCE} { sessionId, capturedThroughSeq }`)
  const reference = z.object({ sessionId: z.string(says).check(z.minLength(1, says)), capturedThroughSeq: z.nullable(z.int(says).check(z.minimum(0, says))) }, says)
  return z.array(reference, says).check(z.maxLength(MAX_SINCE, says))
})()

const messageReference = z.pipe(
  z.object({ sourceId: nonEmpty, seq: z.exactOptional(whole(0)), messageId: z.exactOptional(nonEmpty) }).check(
    z.refine(body => body.seq !== undefined || body.messageId !== undefined, { error: 'must be a non-empty string when "seq" is absent', path: ['messageId'] }),
  ),
  z.transform(({ sourceId, seq, messageId }): RouteRequest<'message-reference'> => (seq !== undefined ? { sourceId, seq } : { sourceId, messageId: messageId! })),
)

/** Every route's body. */
const BODIES: { readonly [K in Route]: z.ZodMiniType<RouteRequest<K>> } = {
  candidates: z.object({ citingSessionId: nonEmpty, query: z.exactOptional(text), limit: z.exactOptional(whole(1)) }),
  preflight: z.object({ citingSessionId: nonEmpty, text: nonEmpty, chips: z.exactOptional(ids(MAX_CHIPS)) }),
  outcomes: z.object({ citingSessionId: nonEmpty, after: z.exactOptional(whole(0)), waitMs: z.exactOptional(z.number(mustBe('a number ≥ 0')).check(z.minimum(0, mustBe('a number ≥ 0')))) }),
  search: z.object({ query: text, limit: z.exactOptional(whole(1, MAX_SIDEBAR_RESULTS)) }),
  titles: z.object({ ids: ids(MAX_TITLE_IDS) }),
  'message-reference': messageReference,
  mention: z.object({ sourceId: nonEmpty }),
  messages: z.object({ citingSessionId: nonEmpty, sourceId: nonEmpty }),
  since: z.object({ sources: sentReferences }),
  find: z.object({ sessionId: nonEmpty, query: z.string(mustBe(`a string of at most ${MAX_QUERY_LENGTH} characters`)).check(z.maxLength(MAX_QUERY_LENGTH, mustBe(`a string of at most ${MAX_QUERY_LENGTH} characters`))), after: z.exactOptional(whole(0)) }),
  related: z.object({ citingSessionId: nonEmpty, text, except: z.exactOptional(ids(MAX_CHIPS)) }),
}

/** The body read as `route`'s request, or a `bad-request` refusal naming the first wrong field (`"limit" must be a whole number ≥ 1`). */
export function parseBody<K extends Route>(route: K, body: Record<string, unknown>): RouteRequest<K> {
  const parsed = z.safeParse(BODIES[route], body)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const field = issue.path[0]
  throw new DshSessionsError(field === undefined ? `the body ${issue.message}` : `"${String(field)}" ${issue.message}`, 'bad-request', { cause: parsed.error })
}
