/** Locations shared by the real-host harness, the main job and the test runner. */
import { homedir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/** Cache of installs shared by every checkout on this machine (set by scripts/toolchain.mjs). */
export const cacheRoot = process.env.DSH_SESSIONS_CACHE
  ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'wishp3-dsh-sessions')

/** Debian's Chromium. */
export const chromiumPath = process.env.DSH_SESSIONS_CHROMIUM ?? '/usr/bin/chromium'

/** Folder holding the binaries of the repository's dev dependencies (pnpm among them). */
export const repoBin = join(repoRoot, 'node_modules', '.bin')

/** Folder of the Node running this process; dsh's shebang is `#!/usr/bin/env node`. */
export const nodeBin = dirname(process.execPath)
