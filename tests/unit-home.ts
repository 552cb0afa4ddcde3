/**
 * Every unit-test file gets its own throwaway harness home, so nothing a test
 * runs writes into the real `~/.dsh`; and every test a fresh folder in it as
 * `DSH_HOME`, so what one test's plugin kept there (its content index, its
 * session catalog, kept tails) is not a later test's restart.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeEach } from 'vitest'

const home = mkdtempSync(join(tmpdir(), 'dsh-sessions-unit-home-'))
process.env.DSH_HOME = home
beforeEach(() => {
  process.env.DSH_HOME = mkdtempSync(join(home, 'test-'))
})
afterAll(() => rmSync(home, { recursive: true, force: true }))
