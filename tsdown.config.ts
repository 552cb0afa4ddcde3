import { defineConfig } from 'tsdown'
import { clientBundle, hostBundle } from './scripts/client-bundle.ts'

export default defineConfig([
  hostBundle('src/index.ts'),
  // The search worker runs in its own thread from its own file, beside index.js.
  hostBundle('src/host/search/worker/worker.ts', 'content-worker'),
  // The store reader's thread, likewise.
  hostBundle('src/host/reader/store-reader-thread.ts', 'store-reader'),
  clientBundle('@wishp3/dsh-sessions', 'src/client/index.ts'),
])
