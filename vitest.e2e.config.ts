import { defineConfig } from 'vitest/config'

/** Real-host browser tests: one file at a time (2 cores; each file boots dsh and Chromium). */
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.e2e.ts'],
    globalSetup: ['tests/e2e/setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 300_000,
    reporters: ['default'],
  },
})
