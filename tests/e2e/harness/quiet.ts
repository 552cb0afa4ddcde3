/**
 * A page with no request of its own in flight: every `fetch` or XHR it has
 * started has answered (the host's long-lived streams and the plugin's
 * outcome long-poll aside) and two frames have drawn the answers. A test
 * that compares what two hosts show reads each page once it is quiet, since
 * it cannot wait for a value it does not know.
 */
import type { Page, Request } from 'playwright-core'

/** Requests that stay open by design, answered only when there is news. */
const LONG_LIVED = [/\/dsh-sessions\/outcomes$/, /\/api\/(events|stream|subscribe)/, /\/api$/]

/** Tracks a page's requests from the moment of watching. */
export interface QuietWatch {
  /** Resolves once nothing is in flight and two frames have passed; fails after `timeoutMs` naming what was still open. */
  settle(timeoutMs?: number): Promise<void>
  stop(): void
}

/**
 * Starts watching a page's requests.
 * @param page - the app page.
 * @returns the watch.
 */
export function watchQuiet(page: Page): QuietWatch {
  const open = new Set<Request>()
  const started = (request: Request) => {
    const type = request.resourceType()
    if ((type === 'fetch' || type === 'xhr') && !LONG_LIVED.some(pattern => pattern.test(new URL(request.url()).pathname))) open.add(request)
  }
  const ended = (request: Request) => { open.delete(request) }
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  return {
    async settle(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        await page.evaluate(() => new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve))))
        if (open.size === 0) return
        if (Date.now() > deadline) throw new Error(`requests still open after ${timeoutMs} ms: ${[...open].map(request => new URL(request.url()).pathname).join(', ')}`)
      }
    },
    stop() {
      page.off('request', started)
      page.off('requestfinished', ended)
      page.off('requestfailed', ended)
    },
  }
}
