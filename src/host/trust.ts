/**
 * The reachability fence `/api` applies, for this plugin's raw routes: the
 * `Host` is a loopback name or a trusted authority, the browser did not mark
 * the request cross-site, and an `Origin`, when sent, names that same
 * authority. It is not authentication; the web host has none.
 * @module @wishp3/dsh-sessions/host/trust
 */
import type { IncomingHttpHeaders } from 'node:http'

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function authority(value: string): URL | undefined {
  try {
    return new URL(`http://${value}`)
  } catch {
    return undefined
  }
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname.endsWith('.localhost')
    || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname)
}

/** A trusted entry without a port admits that host on any port; with one, only that port. */
function isTrustedHost(host: URL, trustedHosts: readonly string[]): boolean {
  return trustedHosts.some(entry => {
    const parsed = authority(entry)
    if (parsed === undefined) return false
    return /:\d+$/.test(entry) ? parsed.host === host.host : parsed.hostname === host.hostname
  })
}

/**
 * Whether a request passes the fence.
 * @param headers - the request headers.
 * @param trustedHosts - authorities admitted besides loopback (`--trusted-host`).
 * @returns true when the request may be served.
 */
export function isTrustedRequest(headers: IncomingHttpHeaders, trustedHosts: readonly string[]): boolean {
  const hostHeader = single(headers.host)
  const host = hostHeader === undefined ? undefined : authority(hostHeader)
  if (host === undefined) return false
  if (!isLoopback(host.hostname) && !isTrustedHost(host, trustedHosts)) return false
  if (single(headers['sec-fetch-site']) === 'cross-site') return false
  const origin = single(headers.origin)
  if (origin === undefined) return true
  try {
    return new URL(origin).host === host.host
  } catch {
    return false
  }
}
