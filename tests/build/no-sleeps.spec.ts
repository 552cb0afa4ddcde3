/**
 * Tests never sleep a fixed time: a wait polls a condition with a deadline
 * and fails naming what it saw. Only the poll helpers may pause between two
 * looks. Playwright's `waitForTimeout(` and a promise that resolves on a
 * timer (`setTimeout(resolve, …)`) are refused in every test file and in
 * the tools the tests share under `dev/`; the bench's own modes keep their
 * timed pauses.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** The poll helpers, where each pause sits between two looks at a condition under a deadline, and this spec, which names the patterns. */
const POLLERS = new Set(['dev/poll.ts', 'tests/build/no-sleeps.spec.ts'])

const SLEEPS = [/\bwaitForTimeout\(/, /setTimeout\(\s*(?:resolve|r|done)\s*,/]

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter(file => /\.tsx?$/.test(file))
    .map(file => join(dir, file))
}

describe('tests wait on conditions', () => {
  const checked = [...files('tests'), ...files('dev')]

  it('has no fixed sleep outside the poll helpers', () => {
    const sleeping = checked.filter(file => !POLLERS.has(file) && SLEEPS.some(pattern => pattern.test(readFileSync(join(root, file), 'utf8'))))
    expect(sleeping).toEqual([])
  })
})
