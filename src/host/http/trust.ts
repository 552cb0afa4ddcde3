/**
 * The reachability fence `/api` applies, for this plugin's raw routes.
 * @module @wishp3/dsh-sessions/host/http/trust
 */
import type { IncomingHttpHeaders } from 'node:http'

/** Which requests a route admits: loopback only, or loopback and the deployment's trusted hosts. */
export type RouteAuthority = 'loopback' | 'trusted-host'

function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined
}

function authority(value: string): URL | undefined {
  try {
    return new URL(`http://${value}`)
  } catch {
    // A Host header that is not a host name is admitted by no rule.
    return undefined
  }
}

/** Whether a normalized URL hostname is a loopback name. `hostname`: a WHATWG URL hostname (IPv6 literals keep their brackets). Returns true for `localhost`, `[::1]` and IPv4 addresses in 127/8. */
export function isLoopbackHostname(hostname: string): boolean {
  if (hostname === 'localhost' || hostname === '[::1]') return true
  const parts = hostname.split('.')
  return parts.length === 4 && parts[0] === '127' && parts.every(part => /^\d{1,3}$/.test(part) && Number(part) <= 255)
}

/** A trusted entry without a port admits that host on any port; with one, only that port. */
function isTrustedHost(host: URL, trustedHosts: readonly string[]): boolean {
  return trustedHosts.some(entry => {
    const parsed = authority(entry)
    if (parsed === undefined) return false
    return /:\d+$/.test(entry) ? parsed.host === host.host : parsed.hostname === host.hostname
  })
}

/** Whether a request passes the fence. `trustedHosts`: authorities admitted besides loopback (`--trusted-host`); pass none to admit loopback only. Returns true when the request may be served. */
export function isTrustedRequest(headers: IncomingHttpHeaders, trustedHosts: readonly string[]): boolean {
  const hostHeader = single(headers.host)
  const host = hostHeader === undefined ? undefined : authority(hostHeader)
  if (host === undefined) return false
  if (!isLoopbackHostname(host.hostname) && !isTrustedHost(host, trustedHosts)) return false
  if (single(headers['sec-fetch-site']) === 'cross-site') return false
  const origin = single(headers.origin)
  if (origin === undefined) return true
  try {
    return new URL(origin).host === host.host
  } catch {
    // An Origin that is not a URL matches no host: refused.
    return false
  }
}

/** Whether a request passes the fence of a route's authority, the way the host pins its privileged methods: `loopback` ignores the trusted hosts. Returns true when the request may be served. */
export function isAdmitted(headers: IncomingHttpHeaders, authorityKind: RouteAuthority, trustedHosts: readonly string[]): boolean {
  return isTrustedRequest(headers, authorityKind === 'loopback' ? [] : trustedHosts)
}
