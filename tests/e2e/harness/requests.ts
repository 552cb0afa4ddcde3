/** Reading what the stand-in model received. */
import { type RecordedRequest, textOf } from '../../../dev/stand-in-model.ts'

/** The user messages of one request, as text, in request order. */
export function userTexts(request: RecordedRequest): string[] {
  return request.body.messages.filter(message => message.role === 'user').map(textOf)
}

/** Whether a text is a session-reference snapshot. */
export function isSnapshot(text: string): boolean {
  return text.startsWith('## Referenced sessions')
}

/**
 * The snapshots that directly follow the user message containing `marker`,
 * and how many snapshots the request holds in all.
 * @param request - one recorded turn request.
 * @param marker - text unique to the direct message.
 * @returns the direct message, the snapshot right after it (if any) and the snapshot count.
 */
export function citation(request: RecordedRequest, marker: string): { direct: string; following: string | undefined; snapshots: number } {
  const texts = userTexts(request)
  const at = texts.findIndex(text => text.includes(marker) && !isSnapshot(text))
  if (at === -1) throw new Error(`no user message contains ${JSON.stringify(marker)}`)
  const next = texts[at + 1]
  return { direct: texts[at]!, following: next !== undefined && isSnapshot(next) ? next : undefined, snapshots: texts.filter(isSnapshot).length }
}
