import { defineConfig } from 'vitest/config'

/**
 * Unit and component tests by layer; `*.client.spec.ts(x)` files opt into
 * jsdom with a pragma. Two files run at a time: vitest's default on a 2-core
 * machine is one (cores − 1), which left a core idle for most of the run.
 * A test's time limit guards against a hang, not a speed: the host tests
 * build real index files and pace real log passes, and beside the heaviest
 * file on two busy cores they take several times what they take alone.
 */
export default defineConfig({
  test: {
    include: ['tests/{host,client,workspace-browser,build,scripts,dev}/**/*.spec.{ts,tsx}'],
    pool: 'threads',
    maxWorkers: 2,
    testTimeout: 20_000,
    setupFiles: ['tests/unit-home.ts'],
    reporters: ['default', './tests/slowest-files.ts'],
  },
})
