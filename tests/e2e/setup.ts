/**
 * Global set-up of the real-host tests: the pinned host (installed once per
 * manifest into the machine cache) and the plugin tarball packed from the
 * build, handed to every test file through `inject()`.
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import type { TestProject } from 'vitest/node'
import { ensureHost, hostDir } from '../../dev/pinned-host.ts'
import { packPlugin } from '../../dev/plugin-tarball.ts'
import { report, timed } from '../../dev/timing.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Folder of the pinned host's `node_modules/.bin`. */
    hostBin: string
    /** The packed plugin. */
    tarball: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const started = performance.now()
  const hostBin = await ensureHost()
  report(`host ready (${hostDir()})`, performance.now() - started)
  const tarball = await timed('npm pack', () => Promise.resolve(packPlugin()))
  project.provide('hostBin', hostBin)
  project.provide('tarball', tarball)
  return () => rmSync(dirname(tarball), { recursive: true, force: true })
}
