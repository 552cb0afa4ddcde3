import { defineConfig } from 'tsdown'
import { clientBundle, hostBundle } from './scripts/client-bundle.ts'

export default defineConfig([
  hostBundle('src/index.ts'),
  clientBundle('@wishp3/dsh-sessions', 'src/client/index.ts'),
])
