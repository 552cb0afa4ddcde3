/**
 * Stand-in model: a DeepSeek/OpenAI-compatible streaming chat-completions
 * server on 127.0.0.1 that records every request body, so tests assert
 * exactly what the model saw. It answers session-title requests with
 * `Title <first four words>` and every other request with
 * `Stand-in reply #<n>. You said: <the last human text>`, or with what a
 * given reply function makes of the request (the main job's demo replies).
 */
import { appendFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One chat message as the adapter sends it. */
export interface WireMessage {
  role: string
  content?: string | { type: string; text?: string }[] | null
  [key: string]: unknown
}

/** One recorded request. */
export interface RecordedRequest {
  /** `title` for session-title requests, `turn` for every other. */
  kind: 'title' | 'turn'
  /** The parsed request body. */
  body: { model?: string; messages: WireMessage[]; [key: string]: unknown }
  /** The reply text streamed back. */
  reply: string
  /** The `x-deepseek-harness-session-id` header: the session the request is for. */
  sessionId: string | undefined
}

/** A running stand-in model. */
export interface StandInModel {
  /** Base URL for `DEEPSEEK_BASE_URL`. */
  readonly url: string
  /** Every request so far, in arrival order. */
  readonly requests: readonly RecordedRequest[]
  /** The `turn` requests so far. */
  turns(): RecordedRequest[]
  /** Stops listening and closes open connections. */
  stop(): Promise<void>
}

/** Options of {@link startModel}. */
export interface ModelOptions {
  /** Append each request as one JSON line to this file. */
  readonly logFile?: string
  /** The reply to a turn request (default: `Stand-in reply #<n>. You said: …`). */
  readonly reply?: (messages: readonly WireMessage[], turn: number) => string
  /** A tool call a turn request makes, looked at before the `CALL_TOOL` form; `undefined` for none. */
  readonly toolCall?: (messages: readonly WireMessage[]) => ToolCall | undefined
  /** The reply once a tool has answered, or `undefined` for the default (`Stand-in reply #<n>. The tool said: …`). */
  readonly toolReply?: (messages: readonly WireMessage[]) => string | undefined
}

/** A tool call the stand-in streams back. */
export interface ToolCall {
  readonly name: string
  /** The arguments, as JSON text. */
  readonly arguments: string
}

/**
 * The tool answers a request holds after the person's last message: how far a scripted run of calls has got.
 * @param messages - the request's messages.
 * @returns how many tool messages follow the last user message.
 */
export function toolAnswersSinceHuman(messages: readonly WireMessage[]): number {
  let count = 0
  for (let index = messages.length - 1; index >= 0 && messages[index]!.role !== 'user'; index -= 1) {
    if (messages[index]!.role === 'tool') count += 1
  }
  return count
}

const TITLE_PROMPT = /^Create a concise title/
const RUNTIME_CONTEXT = /^Current runtime context/
const REFERENCED_SESSIONS = /^## Referenced sessions/

/**
 * Text of a wire message, its text parts joined.
 * @param message - a wire message.
 * @returns its text.
 */
export function textOf(message: WireMessage): string {
  const { content } = message
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  return content.map(part => (part.type === 'text' ? part.text ?? '' : '')).join('')
}

/**
 * The last text a person wrote in a request: user messages other than the
 * runtime context and session snapshots.
 * @param messages - the request's messages.
 * @returns that text, or empty.
 */
export function humanText(messages: readonly WireMessage[]): string {
  const human = messages.filter(message => message.role === 'user')
    .map(textOf)
    .filter(text => !RUNTIME_CONTEXT.test(text) && !REFERENCED_SESSIONS.test(text))
  return human.at(-1) ?? ''
}

function titleReply(messages: readonly WireMessage[]): string {
  const user = messages.find(message => message.role === 'user')
  const json = user === undefined ? '' : textOf(user).replace(/^[^[]*/, '')
  let first = ''
  try {
    const parsed = JSON.parse(json) as { text?: string }[]
    first = parsed[0]?.text ?? ''
  } catch {
    first = json
  }
  return `Title ${first.split(/\s+/).filter(Boolean).slice(0, 4).join(' ')}`.trim()
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

/** A tool call the stand-in makes: a person's message `CALL_TOOL <name> <JSON arguments>` becomes one call. */
const CALL_TOOL = /^CALL_TOOL ([A-Za-z0-9_-]+) (\{.*\})\s*$/s

/** The tool call a request asks the stand-in to make: when the person's last message says so and no tool has answered it yet. */
function toolCallOf(messages: readonly WireMessage[]): ToolCall | undefined {
  if (messages.at(-1)?.role === 'tool') return undefined
  const match = CALL_TOOL.exec(humanText(messages))
  return match === null ? undefined : { name: match[1]!, arguments: match[2]! }
}

/** The entries of the referenced-sessions snapshots a request holds, newest message last. */
function referencedEntries(messages: readonly WireMessage[]): Record<string, unknown>[] {
  return messages.filter(message => message.role === 'user').map(textOf).filter(text => REFERENCED_SESSIONS.test(text)).flatMap(text => {
    try {
      return JSON.parse(text.slice(text.indexOf('[{'), text.lastIndexOf('}]') + 2)) as Record<string, unknown>[]
    } catch {
      return []
    }
  })
}

/** A phrase the person quoted: what a stand-in that follows a pointer searches for. */
const QUOTED = /"([^"]+)"|“([^”]+)”/u

/**
 * Following a pointer reference: when the person quoted a phrase and a
 * referenced session is a pointer (its entry says read_session reads it),
 * the stand-in searches that session for the phrase, once.
 */
function pointerCallOf(messages: readonly WireMessage[]): ToolCall | undefined {
  if (toolAnswersSinceHuman(messages) > 0) return undefined
  const quoted = QUOTED.exec(humanText(messages))
  const pointer = referencedEntries(messages).findLast(entry => typeof entry.read === 'string' && entry.conversation === undefined)
  if (quoted === null || pointer === undefined) return undefined
  return { name: 'read_session', arguments: JSON.stringify({ sessionId: pointer.sessionId, query: quoted[1] ?? quoted[2] }) }
}

/** The answer once the search a pointer led to came back: the best match, with its number. */
function pointerReplyOf(messages: readonly WireMessage[]): string | undefined {
  const answer = messages.at(-1)
  if (answer?.role !== 'tool' || pointerCallOf(messages.slice(0, messages.findLastIndex(message => message.role === 'assistant'))) === undefined) return undefined
  const text = textOf(answer)
  try {
    const found = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { title?: string; matches?: { n: number; excerpt: string }[] }
    const best = found.matches?.[0]
    return best === undefined ? `Nothing in ${found.title ?? 'that session'} matches.` : `In ${found.title ?? 'that session'}, message #${best.n} says: ${best.excerpt}`
  } catch {
    return undefined
  }
}

function stream(res: ServerResponse, model: string, text: string, call?: ToolCall): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' })
  const id = `chatcmpl-standin-${Date.now()}`
  const chunk = (choice: object, extra: object = {}) =>
    res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [choice], ...extra })}\n\n`)
  if (call !== undefined) {
    chunk({ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, id: `call_standin_${Date.now()}`, type: 'function', function: call }] }, finish_reason: null })
    chunk({ index: 0, delta: {}, finish_reason: 'tool_calls' }, { usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 } })
    res.write('data: [DONE]\n\n')
    res.end()
    return
  }
  chunk({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null })
  for (const piece of text.match(/.{1,24}/gsu) ?? []) chunk({ index: 0, delta: { content: piece }, finish_reason: null })
  chunk({ index: 0, delta: {}, finish_reason: 'stop' }, {
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  })
  res.write('data: [DONE]\n\n')
  res.end()
}

/**
 * Starts the stand-in on an OS-chosen loopback port.
 * @param options - where to log.
 * @returns the running model.
 */
export async function startModel(options: ModelOptions = {}): Promise<StandInModel> {
  const requests: RecordedRequest[] = []
  let turn = 0
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
        return
      }
      const body = JSON.parse(await readBody(req)) as RecordedRequest['body']
      const system = body.messages.find(message => message.role === 'system')
      const kind = system !== undefined && TITLE_PROMPT.test(textOf(system)) ? 'title' : 'turn'
      if (kind === 'turn') turn += 1
      const call = kind === 'turn' ? options.toolCall?.(body.messages) ?? toolCallOf(body.messages) ?? pointerCallOf(body.messages) : undefined
      const answered = body.messages.at(-1)?.role === 'tool' ? body.messages.at(-1)! : undefined
      const reply = kind === 'title'
        ? titleReply(body.messages)
        : call !== undefined ? `CALL ${call.name}`
          : answered !== undefined ? options.toolReply?.(body.messages) ?? pointerReplyOf(body.messages) ?? `Stand-in reply #${turn}. The tool said: ${textOf(answered).slice(0, 200)}`
            : options.reply === undefined ? `Stand-in reply #${turn}. You said: ${humanText(body.messages)}` : options.reply(body.messages, turn)
      const header = req.headers['x-deepseek-harness-session-id']
      const record: RecordedRequest = { kind, body, reply, sessionId: typeof header === 'string' ? header : undefined }
      requests.push(record)
      if (options.logFile !== undefined) appendFileSync(options.logFile, `${JSON.stringify(record)}\n`)
      stream(res, body.model ?? 'stand-in', reply, call)
    })().catch((error: unknown) => {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) }))
    })
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    turns: () => requests.filter(request => request.kind === 'turn'),
    stop: () => new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    }),
  }
}
