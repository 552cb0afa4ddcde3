/**
 * What the host specs leave behind, undone after each test, newest first:
 * hosts are stopped (their workers, saves and log writes end) before the
 * folders they wrote into are removed, so nothing outlives the test.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach } from 'vitest'

const cleanups: (() => unknown)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/**
 * Runs a cleanup after the current test, before those registered earlier.
 * @param cleanup - what to undo; may be async.
 */
export function afterTest(cleanup: () => unknown): void {
  cleanups.push(cleanup)
}

/**
 * A folder in the system temp folder, removed after the current test.
 * @param prefix - the folder name's start.
 * @returns its path.
 */
export function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix))
  afterTest(() => rmSync(folder, { recursive: true, force: true }))
  return folder
}
