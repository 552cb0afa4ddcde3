import { defineConfig } from 'vitest/config'

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
  },
})
