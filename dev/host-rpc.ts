/**
 * The host's own client calls a bench makes as the page does: `POST /api/<method>`
 * with a client request, answered with the method's result.
 */

/**
 * Calls one of the host's client methods.
 * @param url - the host's base URL.
 * @param method - the method, e.g. `session.create`.
 * @param payload - its payload.
 * @returns the method's value.
 * @throws when the host answers with anything but a successful result.
 */
export async function rpc(url: string, method: string, payload: unknown): Promise<any> {
  const res = await fetch(`${url}/api/${method}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ type: 'client-request', rpcId: crypto.randomUUID(), method, payload }) })
  const json = await res.json() as { result?: { ok: boolean; value?: unknown } }
  if (json.result?.ok !== true) throw new Error(`${method} answered ${res.status}: ${JSON.stringify(json).slice(0, 500)}`)
  return json.result.value
}

/**
 * A new session in a workspace, live in the host, as the page's new draft is.
 * @param url - the host's base URL.
 * @param cwd - the workspace folder.
 * @returns its id.
 */
export async function newSession(url: string, cwd: string): Promise<string> {
  return ((await rpc(url, 'session.create', { cwd })) as { sessionId: string }).sessionId
}
