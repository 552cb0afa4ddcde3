import { defineConfig } from 'vitest/config'

/** Unit and component tests by layer; `*.client.spec.ts(x)` files opt into jsdom with a pragma. */
export default defineConfig({
  test: {
    include: ['tests/{host,client,workspace-browser,build,scripts,dev}/**/*.spec.{ts,tsx}'],
    pool: 'threads',
    setupFiles: ['tests/unit-home.ts'],
    reporters: ['default', './tests/slowest-files.ts'],
  },
})
