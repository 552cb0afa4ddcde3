/**
 * Tests never sleep a fixed time: a wait polls a condition with a deadline
 * and fails naming what it saw. Only the poll helpers may pause between two
 * looks. Playwright's `waitForTimeout(` and a promise that resolves on a
 * timer (`setTimeout(resolve, …)`) are refused in every test file and in
 * the steps the tests share under `dev/`; the bench keeps its timed pauses.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** The poll helpers, where each pause sits between two looks at a condition under a deadline, and this spec, which names the patterns. */
const POLLERS = new Set(['tests/e2e/harness/wait.ts', 'tests/build/no-sleeps.spec.ts'])

/**
 * Files that still sleep, each to be rewritten on a condition (fake timers, or a barrier the code under test
 * offers); the list only shrinks.
 */
const STILL_SLEEPING = new Set([
  'tests/client/apply.client.spec.ts',
  'tests/client/browser-half.spec.ts',
  'tests/client/reference-dock.client.spec.tsx',
  'tests/client/sidebar.spec.ts',
  'tests/dev/bench-tables.spec.ts',
  'tests/host/catalog-file.spec.ts',
  'tests/host/content-search.spec.ts',
  'tests/host/harness.ts',
  'tests/host/hardening.spec.ts',
  'tests/host/per-id-cost.spec.ts',
  'tests/host/session-tools.spec.ts',
  'tests/host/snapshot-tails.spec.ts',
  'tests/e2e/hardening.e2e.ts',
  'tests/e2e/long-sessions.e2e.ts',
])

const SLEEPS = [/\bwaitForTimeout\(/, /setTimeout\(\s*(?:resolve|r|done)\s*,/]

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter(file => /\.tsx?$/.test(file))
    .map(file => join(dir, file))
}

describe('tests wait on conditions', () => {
  const checked = [...files('tests'), 'dev/web-ui.ts', 'dev/browser.ts', 'dev/stack.ts']

  it('has no fixed sleep outside the poll helpers', () => {
    const sleeping = checked.filter(file => !POLLERS.has(file) && SLEEPS.some(pattern => pattern.test(readFileSync(join(root, file), 'utf8'))))
    expect(sleeping.filter(file => !STILL_SLEEPING.has(file))).toEqual([])
  })

  it('keeps the list of files still to rewrite exact', () => {
    const sleeping = new Set(checked.filter(file => SLEEPS.some(pattern => pattern.test(readFileSync(join(root, file), 'utf8')))))
    expect([...STILL_SLEEPING].filter(file => !sleeping.has(file))).toEqual([])
  })
})
