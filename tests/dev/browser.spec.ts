/** A browser launch that fails leaves nothing in the temporary folder. */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

describe('launchBrowser', () => {
  afterEach(() => {
    vi.unstubAllEnvs()
    vi.resetModules()
  })

  it('leaves the temporary folder empty when Chromium cannot start', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'browser-spec-'))
    try {
      vi.stubEnv('TMPDIR', folder)
      vi.stubEnv('DSH_SESSIONS_CHROMIUM', join(folder, 'no-chromium-here'))
      vi.resetModules()
      const { launchBrowser } = await import('../../dev/browser.ts')
      await expect(launchBrowser()).rejects.toThrow()
      expect(readdirSync(folder)).toEqual([])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
