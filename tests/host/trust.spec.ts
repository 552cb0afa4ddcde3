/** The routes' trust fence and the loopback pin of the settings write. */
import { describe, expect, it } from 'vitest'
import { isAdmitted, isLoopbackHostname, isTrustedRequest } from '../../src/host/http/trust.ts'

describe('route trust fence', () => {
  it.each([
    [{ host: '127.0.0.1:3080' }],
    [{ host: 'localhost:3080', origin: 'http://localhost:3080', 'sec-fetch-site': 'same-origin' }],
    [{ host: '[::1]:3080', origin: 'http://[::1]:3080' }],
    [{ host: 'box.lan:3080', origin: 'http://box.lan:3080' }, ['box.lan']],
    [{ host: 'box.lan:3080' }, ['box.lan:3080']],
    [{ host: '127.0.0.1:3080', 'sec-fetch-site': 'same-site' }],
  ])('admits %j', (headers, trusted: string[] = []) => {
    expect(isTrustedRequest(headers, trusted)).toBe(true)
  })

  it.each([
    [{}],
    [{ host: 'evil.example:3080' }],
    [{ host: 'box.lan:3081' }, ['box.lan:3080']],
    [{ host: '127.0.0.1:3080', 'sec-fetch-site': 'cross-site' }],
    [{ host: '127.0.0.1:3080', origin: 'http://evil.example' }],
    [{ host: '127.0.0.1:3080', origin: 'http://127.0.0.1:3081' }],
    [{ host: '127.0.0.1:3080', origin: 'null' }],
    [{ host: 'not a host' }],
    [{ host: '127.0.0.1.evil.example' }],
    [{ host: 'app.localhost:3080' }],
    [{ host: 'localhost.evil.example:3080' }],
  ])('refuses %j', (headers, trusted: string[] = []) => {
    expect(isTrustedRequest(headers, trusted)).toBe(false)
  })
})

describe('route authority', () => {
  it('pins loopback routes to loopback even for a trusted host', () => {
    expect(isAdmitted({ host: 'box.lan:3080' }, 'trusted-host', ['box.lan'])).toBe(true)
    expect(isAdmitted({ host: 'box.lan:3080' }, 'loopback', ['box.lan'])).toBe(false)
    expect(isAdmitted({ host: '127.0.0.1:3080' }, 'loopback', ['box.lan'])).toBe(true)
  })

  it.each([['localhost', true], ['[::1]', true], ['127.0.0.1', true], ['127.255.255.255', true], ['app.localhost', false], ['128.0.0.1', false], ['127.0.0', false]])(
    'classifies %s as loopback: %s', (hostname, loopback) => {
      expect(isLoopbackHostname(hostname)).toBe(loopback)
    })
})
