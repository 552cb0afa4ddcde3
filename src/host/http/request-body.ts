/**
 * Reading a route's JSON body: the media type and the size and nesting bounds, before its schema (see
 * `route-bodies.ts`) reads it; each refusal is a `DshSessionsError` with its code.
 * @module @wishp3/dsh-sessions/host/http/request-body
 */
import type { IncomingMessage } from 'node:http'
import { DshSessionsError } from '../errors.ts'

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 64 * 1024

/** Deepest nesting of arrays and objects a body may have; no route reads deeper than three levels. */
export const MAX_BODY_DEPTH = 8

/** Whether a parsed JSON value nests arrays and objects deeper than `max` levels; walked without recursion. */
function nestsDeeper(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 1]]
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const [node, depth] = item
    if (typeof node !== 'object' || node === null) continue
    if (depth > max) return true
    for (const child of Object.values(node)) pending.push([child, depth + 1])
  }
  return false
}

/** The request's body as a JSON object, refused when it is not one, too large, too deep, or not `application/json`. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = req.headers['content-type'] ?? ''
  if (!/^application\/json\s*(;|$)/i.test(type)) throw new DshSessionsError('the body must be application/json', 'unsupported-media-type')
  const declared = Number(req.headers['content-length'] ?? 0)
  if (declared > MAX_BODY_BYTES) throw new DshSessionsError(`the body exceeds ${MAX_BODY_BYTES} bytes`, 'body-too-large')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new DshSessionsError(`the body exceeds ${MAX_BODY_BYTES} bytes`, 'body-too-large')
    chunks.push(chunk)
  }
  let body: unknown
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch (error) {
    throw new DshSessionsError('the body is not valid JSON', 'malformed-json', { cause: error })
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new DshSessionsError('the body must be a JSON object', 'bad-request')
  if (nestsDeeper(body, MAX_BODY_DEPTH)) throw new DshSessionsError(`the body nests deeper than ${MAX_BODY_DEPTH} levels`, 'bad-request')
  return body as Record<string, unknown>
}
