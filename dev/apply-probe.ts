/**
 * Observes a browser half from a test or the bench: an init script wraps the shell's
 * `window.__ModuleLoader__.load` so that when the bundle with the given id
 * registers, its `apply` is wrapped. After the real `apply` returns, the
 * wrapper records that it ran and keeps the row context's locale lookup for
 * the plugin's namespace, so a test can read the dictionaries the plugin
 * registered through the real locale service, and can open sessions
 * through the shell's own sessions service.
 */
import type { BrowserContext, Page } from 'playwright-core'

/** What the probe saw of the browser half. */
export interface ApplyProbe {
  /** How many times `apply` returned. */
  applied: number
  /** The error `apply` threw, if any. */
  error?: string
}

/* The init script runs in the page; it must stay self-contained. */
function install({ id, ns }: { id: string; ns: string }): void {
  const state: {
    applied: number
    error?: string
    translate?: (key: string) => string
    hostSearch?: (query: string) => Promise<unknown>
    open?: (sessionId: string) => void
    current?: () => string | undefined
  } = { applied: 0 }
  const wrapLoad = (load: (registration: { id: string; factory: (require: unknown) => unknown }) => unknown) =>
    function wrapped(this: unknown, registration: { id: string; factory: (require: unknown) => unknown }) {
      if (registration.id !== id) return load.call(this, registration)
      const factory = registration.factory
      return load.call(this, {
        ...registration,
        factory: (require: unknown) => {
          const exports = factory(require) as { apply: (ctx: unknown, config: unknown) => unknown; inject?: unknown }
          return {
            ...exports,
            apply(ctx: { locale: { bind(ns: string): (key: string) => string }; get(name: string): unknown }, config: unknown) {
              try {
                const result = exports.apply(ctx, config)
                state.applied += 1
                state.translate = ctx.locale.bind(ns)
                const sessions = ctx.get('sessions') as {
                  search(query: string, signal: AbortSignal): Promise<unknown>
                  open(sessionId: string): void
                  list: { getSnapshot(): { current?: string } }
                } | undefined
                if (sessions !== undefined) {
                  state.hostSearch = query => sessions.search(query, new AbortController().signal)
                  state.open = sessionId => { sessions.open(sessionId) }
                  state.current = () => sessions.list.getSnapshot().current
                }
                return result
              } catch (error) {
                state.error = String(error)
                throw error
              }
            },
          }
        },
      })
    }
  let facade: { load: typeof wrapLoad extends (l: infer L) => unknown ? L : never } | undefined
  Object.defineProperty(window, '__dshSessionsProbe', { value: state })
  Object.defineProperty(window, '__ModuleLoader__', {
    configurable: true,
    get: () => facade,
    set(value: NonNullable<typeof facade>) {
      facade = value
      let inner = value.load
      Object.defineProperty(value, 'load', {
        configurable: true,
        get: () => wrapLoad(inner),
        set: (next: typeof inner) => { inner = next },
      })
    },
  })
}

/**
 * Installs the probe in every page the context opens.
 * @param context - the browser context.
 * @param id - the bundle id (the package name).
 * @param ns - the locale namespace to expose.
 */
export async function installApplyProbe(context: BrowserContext, id: string, ns: string): Promise<void> {
  await context.addInitScript(install, { id, ns })
}

/**
 * Reads the probe.
 * @param page - a page of the probed context.
 * @returns what the probe saw.
 */
export async function readProbe(page: Page): Promise<ApplyProbe> {
  return page.evaluate(() => {
    const state = (window as unknown as { __dshSessionsProbe: { applied: number; error?: string } }).__dshSessionsProbe
    return { applied: state.applied, ...(state.error === undefined ? {} : { error: state.error }) }
  })
}

/**
 * Asks the host's own `session.search` (what every client of the host asks), through the shell's sessions service.
 * @param page - a page of the probed context.
 * @param query - the query.
 * @returns the host's answer: `{ ok, value: { items: { sessionId, snippet }[], hasMore } }` or `{ ok: false, error }`.
 */
export async function hostSearchInPage(page: Page, query: string): Promise<{ ok: boolean; value?: { items: { sessionId: string; snippet?: string }[] }; error?: unknown }> {
  return page.evaluate(q => {
    const state = (window as unknown as { __dshSessionsProbe: { hostSearch?: (query: string) => Promise<unknown> } }).__dshSessionsProbe
    if (state.hostSearch === undefined) throw new Error('the browser half has not applied')
    return state.hostSearch(q) as Promise<{ ok: boolean }>
  }, query)
}

/**
 * Looks a key up through the locale service the plugin registered into.
 * @param page - a page of the probed context.
 * @param key - a key of the plugin's namespace.
 * @returns the text in the active locale.
 */
export async function translateInPage(page: Page, key: string): Promise<string> {
  return page.evaluate(k => {
    const state = (window as unknown as { __dshSessionsProbe: { translate?: (key: string) => string } }).__dshSessionsProbe
    if (state.translate === undefined) throw new Error('the browser half has not applied')
    return state.translate(k)
  }, key)
}

/**
 * Opens a session as the sidebar does, through the shell's sessions service.
 * @param page - a page of the probed context.
 * @param sessionId - the session.
 */
export async function openSessionInPage(page: Page, sessionId: string): Promise<void> {
  await page.evaluate(id => {
    const state = (window as unknown as { __dshSessionsProbe: { open?: (sessionId: string) => void } }).__dshSessionsProbe
    if (state.open === undefined) throw new Error('the browser half has not applied')
    state.open(id)
  }, sessionId)
}

/**
 * The session on screen, as the shell's sessions service tells it.
 * @param page - a page of the probed context.
 * @returns its id.
 */
export async function currentSessionInPage(page: Page): Promise<string | undefined> {
  return page.evaluate(() => (window as unknown as { __dshSessionsProbe: { current?: () => string | undefined } }).__dshSessionsProbe.current?.())
}
