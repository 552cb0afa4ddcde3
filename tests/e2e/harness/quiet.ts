/**
 * A page with no request of its own in flight: every `fetch` or XHR it has
 * started has answered (the host's long-lived streams and the plugin's
 * outcome long-poll aside) and two frames have drawn the answers. A test
 * that compares what two hosts show reads each page once it is quiet, since
 * it cannot wait for a value it does not know.
 */
import type { Page, Request } from 'playwright-core'
import { watchRequests } from '../../../dev/page-requests.ts'
import { frames } from '../../../dev/web-ui.ts'

/** Requests that stay open by design, answered only when there is news. */
const LONG_LIVED = [/\/dsh-sessions\/outcomes$/, /\/api\/(events|stream|subscribe)/, /\/api$/]

/** Tracks a page's requests from the moment of watching. */
export interface QuietWatch {
  /** Resolves once nothing is in flight and two frames have passed; fails after `timeoutMs` naming what was still open. */
  settle(timeoutMs?: number): Promise<void>
  stop(): void
}

function isOwnFetch(request: Request): boolean {
  const type = request.resourceType()
  return (type === 'fetch' || type === 'xhr') && !LONG_LIVED.some(pattern => pattern.test(new URL(request.url()).pathname))
}

/**
 * Starts watching a page's requests.
 * @param page - the app page.
 * @returns the watch.
 */
export function watchQuiet(page: Page): QuietWatch {
  const watch = watchRequests(page, isOwnFetch)
  return {
    async settle(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        await frames(page)
        const open = watch.open()
        if (open.length === 0) return
        if (Date.now() > deadline) throw new Error(`requests still open after ${timeoutMs} ms: ${open.map(request => new URL(request.url()).pathname).join(', ')}`)
      }
    },
    stop: () => { watch.stop() },
  }
}
