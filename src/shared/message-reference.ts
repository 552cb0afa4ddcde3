/**
 * The text form of a reference to some messages of a session, `@[label](dsh-messages:<id>/<seqs>)`
 * (or `/agent` for a pointer), which the pre-step reads and the browser writes; the official
 * parser leaves it alone. The grammar is the official mention's, and every scan is linear.
 * @module @wishp3/dsh-sessions/shared/message-reference
 */

export const MESSAGE_REFERENCE_SCHEME = 'dsh-messages:'

/** Most number items (`n` or `a-b`) one reference may hold. */
export const MAX_SELECTION_ITEMS = 64

/** Longest label read, in UTF-16 units. */
const MAX_LABEL = 512

/** Longest digit run read as a number: a safe integer has at most 16 digits. */
const MAX_DIGITS = 16

/** Inclusive ranges of log sequence numbers, ascending and disjoint. */
export type MessageSelection = readonly (readonly [number, number])[]

export const AGENT_READS = 'agent'

/** A reference to some messages of one session, or a pointer to it (`agent`, with no messages selected). */
export interface MessageReference {
  readonly sessionId: string
  readonly selection: MessageSelection
  readonly label?: string
  /** The agent reads the session on demand; the reference carries no messages. */
  readonly agent?: true
}

export interface MessageMention {
  readonly start: number
  readonly end: number
  /** The label as written, unescaped; `undefined` for a bare URI. */
  readonly label: string | undefined
  readonly uri: string
  /** What it names; `undefined` when the URI is malformed. */
  readonly reference: MessageReference | undefined
}

const LINE_TERMINATOR = /^[\n\r\u2028\u2029]$/u
const URI_STOP = /^\s$/u
const BARE_CHAR = /^[A-Za-z0-9_\-/,]$/
const NONE = -1

/** For every offset, where a label starting there would end (its `]`), or -1: a backslash takes the next character with it unless that is a line terminator or the text's end, where the label fails. */
export function labelEnds(text: string): Int32Array {
  const ends = new Int32Array(text.length + 2).fill(NONE)
  for (let at = text.length - 1; at >= 0; at -= 1) {
    const char = text[at]
    if (char === ']') ends[at] = at
    else if (char === '\\') ends[at] = at + 1 < text.length && !LINE_TERMINATOR.test(text[at + 1]!) ? ends[at + 2]! : NONE
    else ends[at] = ends[at + 1]!
  }
  return ends
}

function base64url(bytes: Uint8Array): string {
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')
}

function encodeId(sessionId: string): string {
  return base64url(new TextEncoder().encode(JSON.stringify(sessionId)))
}

function decodeId(payload: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(payload) || payload.length % 4 === 1) return undefined
  try {
    const binary = atob(payload.replaceAll('-', '+').replaceAll('_', '/'))
    const bytes = Uint8Array.from(binary, char => char.charCodeAt(0))
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    if (typeof parsed !== 'string' || parsed === '' || encodeId(parsed) !== payload) return undefined
    return parsed
  } catch {
    // Not a reference this form can read: the caller treats the text as plain.
    return undefined
  }
}

/** A selection in its canonical form: ascending, overlapping and touching ranges merged. */
export function normalizeSelection(ranges: Iterable<readonly [number, number]>): MessageSelection {
  const sorted = [...ranges].map(([a, b]): [number, number] => [Math.min(a, b), Math.max(a, b)]).sort((x, y) => x[0] - y[0])
  const out: [number, number][] = []
  for (const [a, b] of sorted) {
    const last = out.at(-1)
    if (last !== undefined && a <= last[1] + 1) last[1] = Math.max(last[1], b)
    else out.push([a, b])
  }
  return out
}

function formatSelection(selection: MessageSelection): string {
  return selection.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(',')
}

function parseNumber(digits: string): number | undefined {
  if (digits.length > MAX_DIGITS || !/^(?:0|[1-9][0-9]*)$/.test(digits)) return undefined
  const value = Number(digits)
  return Number.isSafeInteger(value) ? value : undefined
}

function parseSelection(text: string): MessageSelection | undefined {
  const items = text.split(',')
  if (items.length > MAX_SELECTION_ITEMS) return undefined
  const ranges: [number, number][] = []
  for (const item of items) {
    const dash = item.indexOf('-')
    const a = parseNumber(dash === -1 ? item : item.slice(0, dash))
    const b = dash === -1 ? a : parseNumber(item.slice(dash + 1))
    if (a === undefined || b === undefined || b < a) return undefined
    const last = ranges.at(-1)
    if (last !== undefined && a <= last[1]) return undefined
    ranges.push([a, b])
  }
  return ranges
}

/** Escapes a label so the official mention grammar reads it back unchanged. */
export function escapeLabel(label: string): string {
  return label.replace(/[\\[\]]/g, char => `\\${char}`).replace(/[\n\r\u2028\u2029]/g, ' ')
}

function unescapeLabel(raw: string): string {
  return raw.replace(/\\([\s\S])/g, '$1')
}

/** The URI of a message reference. Throws RangeError when the selection of a reference that is not a pointer is empty or has too many ranges. */
export function messageReferenceUri(reference: Pick<MessageReference, 'sessionId' | 'selection' | 'agent'>): string {
  if (reference.agent === true) return `${MESSAGE_REFERENCE_SCHEME}${encodeId(reference.sessionId)}/${AGENT_READS}`
  const selection = normalizeSelection(reference.selection)
  if (selection.some(range => range.some(seq => !Number.isSafeInteger(seq) || seq < 0))) throw new RangeError('message numbers are whole numbers ≥ 0')
  if (selection.length === 0 || selection.length > MAX_SELECTION_ITEMS) throw new RangeError('a message reference holds 1 to 64 ranges of messages')
  return `${MESSAGE_REFERENCE_SCHEME}${encodeId(reference.sessionId)}/${formatSelection(selection)}`
}

/** The mention of a message reference, `@[label](dsh-messages:…)`. `reference`: the session, its messages and the label. */
export function formatMessageReference(reference: MessageReference): string {
  return `@[${escapeLabel(reference.label ?? reference.sessionId)}](${messageReferenceUri(reference)})`
}

/** Reads one URI. Returns the session and messages, or `undefined` when malformed. */
export function parseMessageReferenceUri(uri: string): Omit<MessageReference, 'label'> | undefined {
  if (!uri.startsWith(MESSAGE_REFERENCE_SCHEME)) return undefined
  const body = uri.slice(MESSAGE_REFERENCE_SCHEME.length)
  const slash = body.indexOf('/')
  if (slash <= 0) return undefined
  const sessionId = decodeId(body.slice(0, slash))
  if (body.slice(slash + 1) === AGENT_READS) return sessionId === undefined ? undefined : { sessionId, selection: [], agent: true }
  const selection = parseSelection(body.slice(slash + 1))
  return sessionId === undefined || selection === undefined ? undefined : { sessionId, selection }
}

/** Finds message references in a text: labelled mentions and bare URIs, in text order and never overlapping, in time linear in the text. */
export function scanMessageReferences(text: string): MessageMention[] {
  const found: MessageMention[] = []
  let at = text.indexOf(MESSAGE_REFERENCE_SCHEME)
  if (at === -1) return found
  let ends: Int32Array | undefined
  /** For every offset, the first offset at or after it holding a space or `)`; filled on first need. */
  let stops: Int32Array | undefined
  let consumed = 0
  let mention = text.indexOf('@[')
  while (at !== -1) {
    // A labelled mention whose URI starts here: the nearest `@[` before it whose label closes right before `](`.
    let labelled: MessageMention | undefined
    if (at >= 2 && text[at - 1] === '(' && text[at - 2] === ']') {
      ends ??= labelEnds(text)
      while (mention !== -1 && (ends[mention + 2] === NONE || ends[mention + 2]! < at - 2)) mention = text.indexOf('@[', mention + 1)
      if (mention !== -1 && mention >= consumed && ends[mention + 2] === at - 2 && at - 2 - (mention + 2) <= MAX_LABEL) {
        if (stops === undefined) {
          stops = new Int32Array(text.length + 1).fill(text.length)
          for (let index = text.length - 1; index >= 0; index -= 1) {
            const char = text[index]!
            stops[index] = char === ')' || URI_STOP.test(char) ? index : stops[index + 1]!
          }
        }
        const stop = stops[at]!
        if (text[stop] === ')') {
          const uri = text.slice(at, stop)
          const parsed = parseMessageReferenceUri(uri)
          const label = unescapeLabel(text.slice(mention + 2, at - 2))
          labelled = { start: mention, end: stop + 1, label, uri, reference: parsed === undefined ? undefined : { ...parsed, label } }
        }
      }
    }
    if (labelled !== undefined) {
      found.push(labelled)
      consumed = labelled.end
    } else if (at >= consumed) {
      let end = at + MESSAGE_REFERENCE_SCHEME.length
      while (end < text.length && BARE_CHAR.test(text[end]!)) end += 1
      while (end > at + MESSAGE_REFERENCE_SCHEME.length && text[end - 1] === ',') end -= 1
      if (end > at + MESSAGE_REFERENCE_SCHEME.length) {
        const uri = text.slice(at, end)
        const parsed = parseMessageReferenceUri(uri)
        found.push({ start: at, end, label: undefined, uri, reference: parsed })
        consumed = end
      }
    }
    at = text.indexOf(MESSAGE_REFERENCE_SCHEME, Math.max(at + 1, consumed))
  }
  return found
}

/** How message numbers read in a label: `#3`, `#3, #5`, `#3–#7` for a run. */
export function formatNumbers(numbers: readonly number[]): string {
  const runs: string[] = []
  for (let at = 0; at < numbers.length;) {
    let end = at
    while (end + 1 < numbers.length && numbers[end + 1] === numbers[end]! + 1) end += 1
    runs.push(end > at + 1 ? `#${numbers[at]}–#${numbers[end]}` : end === at + 1 ? `#${numbers[at]}, #${numbers[end]}` : `#${numbers[at]}`)
    at = end + 1
  }
  return runs.join(', ')
}

/** How many messages a label's numbers name, read back from what {@link formatNumbers} wrote after the label's last ` · `. `label`: a part reference's label, e.g. `Kiwi plans · #3–#7, #9`. Returns the count; `undefined` for a label without numbers. */
export function countNumbers(label: string): number | undefined {
  const suffix = / · (#\d{1,16}(?:–#\d{1,16})?(?:, #\d{1,16}(?:–#\d{1,16})?)*)$/u.exec(label)?.[1]
  if (suffix === undefined) return undefined
  return suffix.split(', ').reduce((count, run) => {
    const [from, to] = run.split('–').map(number => Number(number.slice(1)))
    return count + (to === undefined ? 1 : to - from! + 1)
  }, 0)
}
