import { defineConfig } from 'vitest/config'

/**
 * Unit and component tests by layer; `*.client.spec.ts(x)` files opt into
 * jsdom with a pragma. Two files run at a time: vitest's default on a 2-core
 * machine is one (cores − 1), which left a core idle for most of the run.
 */
export default defineConfig({
  test: {
    include: ['tests/{host,client,workspace-browser,build,scripts,dev}/**/*.spec.{ts,tsx}'],
    pool: 'threads',
    maxWorkers: 2,
    setupFiles: ['tests/unit-home.ts'],
    reporters: ['default', './tests/slowest-files.ts'],
  },
})
