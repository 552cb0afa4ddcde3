import { defineConfig } from 'tsdown'
import { clientBundle, hostBundle } from './scripts/client-bundle.ts'

export default defineConfig([
  hostBundle('src/index.ts'),
  // The search worker runs in its own thread from its own file, beside index.js.
  hostBundle('src/host/search/worker/worker.ts', 'content-worker'),
  clientBundle('@wishp3/dsh-sessions', 'src/client/index.ts'),
])
