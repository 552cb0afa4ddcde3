/**
 * Calls between the host and a worker thread: their shapes, and the thread's end, which answers each
 * request on its port once, with its result or its error's message, as it finishes.
 * @module @wishp3/dsh-sessions/host/worker-calls
 */
import type { MessagePort } from 'node:worker_threads'

/** Every call of a thread, by name: what it takes (`args`) and what it answers (`result`). Each thread has `shutdown`. */
export interface Calls {
  shutdown: { args: Record<string, never>; result: null }
}

/** What a call takes. */
export type ArgsOf<T> = T extends { args: infer A } ? A : never

/** What a call answers. */
export type ResultOf<T> = T extends { result: infer R } ? R : never

/** One request. */
export interface CallRequest {
  readonly id: number
  readonly call: string
  readonly args: unknown
}

/** One answer. */
export type CallReply =
  | { readonly id: number; readonly ok: true; readonly result: unknown }
  | { readonly id: number; readonly ok: false; readonly error: string }

/** What answers each call but `shutdown`, which ends the thread once the calls before it are done. */
export type CallHandlers<C extends Calls> = { [K in Exclude<keyof C, 'shutdown'>]: (args: ArgsOf<C[K]>) => Promise<ResultOf<C[K]>> | ResultOf<C[K]> }

/** Answers the requests that arrive on a port. `port`: the thread's port to the host. */
export function serveCalls<C extends Calls>(port: MessagePort, handlers: CallHandlers<C>): void {
  const serve = async (request: CallRequest): Promise<CallReply> => {
    try {
      if (request.call === 'shutdown') {
        setImmediate(() => process.exit(0))
        return { id: request.id, ok: true, result: null }
      }
      const handler = (handlers as Record<string, (args: unknown) => unknown>)[request.call]
      if (handler === undefined) throw new TypeError(`no call "${request.call}"`)
      return { id: request.id, ok: true, result: await handler(request.args) }
    } catch (error) {
      return { id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) }
    }
  }
  port.on('message', (request: CallRequest) => {
    void serve(request).then(reply => port.postMessage(reply))
  })
}
