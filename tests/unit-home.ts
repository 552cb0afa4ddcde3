/** Every unit-test file gets its own throwaway harness home, so nothing a test runs writes into the real `~/.dsh`. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

const home = mkdtempSync(join(tmpdir(), 'dsh-sessions-unit-home-'))
process.env.DSH_HOME = home
afterAll(() => rmSync(home, { recursive: true, force: true }))
