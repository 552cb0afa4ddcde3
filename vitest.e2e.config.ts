import { basename } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { defineConfig } from 'vitest/config'

/**
 * The real-host files, longest first, so that two workers finish together:
 * without a cache of earlier runs vitest starts the largest files first, and
 * the group files are small. A file not named here starts after these.
 */
const LONGEST_FIRST = ['search', 'menus', 'hardened', 'conversation', 'parity', 'long-sessions', 'profile', 'low-disk', 'start', 'index-crash']

class LongestFirst extends BaseSequencer {
  override sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST_FIRST.indexOf(basename(file.moduleId, '.e2e.ts'))
      return at === -1 ? LONGEST_FIRST.length : at
    }
    return Promise.resolve([...files].sort((a, b) => rank(a) - rank(b)))
  }
}

/**
 * Real-host browser tests. Each file is a group of topics that shares one
 * host and one Chromium. Two files run at a time (2 cores; a real-host file
 * waits on the browser, the host and the model more than it computes). The
 * files that time something run beside the others and assert generous
 * bounds only; `npm run bench` judges the figures.
 */
export default defineConfig({
  test: {
    globalSetup: ['tests/e2e/setup.ts'],
    reporters: ['default', './tests/slowest-files.ts'],
    include: ['tests/e2e/**/*.e2e.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    sequence: { sequencer: LongestFirst },
  },
})
