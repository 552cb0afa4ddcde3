/**
 * The pinned dsh 0.1.0-rc.8, installed once per manifest into the machine
 * cache from `dev/host-app` with npm and `legacy-peer-deps` (npm's peer
 * solver does not terminate on the harness's peer graph).
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { cacheRoot, nodeBin, repoRoot } from './paths.ts'
import { timed } from './timing.ts'

const manifestDir = join(repoRoot, 'dev', 'host-app')
const manifestFiles = ['package.json', 'package-lock.json', '.npmrc']

/** Version every test and the main job run against. */
export const HOST_VERSION = '0.1.0-rc.8'

/** Where the host of the current manifest lives. */
export function hostDir(): string {
  const hash = createHash('sha256')
  for (const file of manifestFiles) hash.update(readFileSync(join(manifestDir, file)))
  return join(cacheRoot, `host-${hash.digest('hex').slice(0, 16)}`)
}

/**
 * Installs the host when the cache lacks it.
 * @returns the folder holding the host's `node_modules/.bin`.
 */
export async function ensureHost(): Promise<string> {
  const dir = hostDir()
  const bin = join(dir, 'node_modules', '.bin')
  if (existsSync(join(dir, '.complete'))) return bin
  await timed(`install dsh ${HOST_VERSION} (cold)`, async () => {
    const staging = `${dir}.staging-${process.pid}`
    rmSync(staging, { recursive: true, force: true })
    mkdirSync(staging, { recursive: true })
    for (const file of manifestFiles) copyFileSync(join(manifestDir, file), join(staging, file))
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: staging,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, PATH: `${nodeBin}:${process.env.PATH ?? ''}` },
      timeout: 15 * 60_000,
    })
    const version = execFileSync(join(staging, 'node_modules', '.bin', 'dsh'), ['--version'], {
      env: { ...process.env, PATH: `${nodeBin}:${process.env.PATH ?? ''}` },
      encoding: 'utf8',
    }).trim()
    if (!version.includes(HOST_VERSION)) throw new Error(`installed dsh reports ${version}, expected ${HOST_VERSION}`)
    execFileSync('touch', [join(staging, '.complete')])
    rmSync(dir, { recursive: true, force: true })
    renameSync(staging, dir)
  })
  return bin
}
