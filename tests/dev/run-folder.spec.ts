/** A real-host run keeps its files in its throwaway home: every dsh process gets the home's own temporary folder, and removing the home removes it. */
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { describe, expect, it } from 'vitest'
import { dshEnv } from '../../dev/dsh-process.ts'
import { createHome } from '../../dev/home.ts'

describe('the throwaway run folder', () => {
  it('is the TMPDIR of every dsh process, inside the home, gone with it', () => {
    const home = createHome()
    try {
      const env = dshEnv({ home, hostBin: '/nowhere' })
      expect(env.TMPDIR).toBe(home.tmp)
      expect(env.HOME).toBe(home.home)
      expect(home.tmp.startsWith(`${home.home}/`)).toBe(true)
      expect(existsSync(home.tmp)).toBe(true)
      expect(env.TMPDIR).not.toBe(tmpdir())
    } finally {
      home.remove()
    }
    expect(existsSync(home.tmp)).toBe(false)
  })
})
