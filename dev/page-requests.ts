/**
 * A page's requests still waiting for their answer, among those a test
 * watches for: what a wait on "the page has heard back" reads.
 */
import type { Page, Request } from 'playwright-core'

/** The watched requests of a page, from the moment of watching. */
export interface RequestWatch {
  /** The watched requests started and not yet answered or failed. */
  open(): readonly Request[]
  /** Stops watching. */
  stop(): void
}

/**
 * Starts watching.
 * @param page - the app page.
 * @param matches - which requests to watch.
 * @returns the watch.
 */
export function watchRequests(page: Page, matches: (request: Request) => boolean): RequestWatch {
  const open = new Set<Request>()
  const started = (request: Request) => { if (matches(request)) open.add(request) }
  const ended = (request: Request) => { open.delete(request) }
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  return {
    open: () => [...open],
    stop: () => {
      page.off('request', started)
      page.off('requestfinished', ended)
      page.off('requestfailed', ended)
    },
  }
}
