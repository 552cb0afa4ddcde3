import { defineConfig } from 'vitest/config'

/**
 * Real-host browser tests. Each file boots its own dsh and Chromium. Two
 * files run at a time (2 cores; a real-host file waits on the browser, the
 * host and the model more than it computes); the files that assert how fast
 * something answers run after them, one at a time, on a quiet machine.
 */
const TIMED = ['tests/e2e/candidates-latency.e2e.ts', 'tests/e2e/hardening.e2e.ts']

export default defineConfig({
  test: {
    globalSetup: ['tests/e2e/setup.ts'],
    reporters: ['default', './tests/slowest-files.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'real-host',
          include: ['tests/e2e/**/*.e2e.ts'],
          exclude: TIMED,
          pool: 'forks',
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'real-host timed',
          include: TIMED,
          pool: 'forks',
          maxWorkers: 1,
          testTimeout: 120_000,
          hookTimeout: 300_000,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
})
