/**
 * Global set-up of the real-host tests: the pinned host (installed once per
 * manifest into the machine cache) and the plugin tarball packed from the
 * build, handed to every test file of both projects through `inject()`.
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

/** The host and the tarball, made once per run however many projects ask (their set-ups run in the one main process). */
const shared = globalThis as { dshSessionsE2e?: Promise<{ hostBin: string; tarball: string }> }

export default async function setup(project: TestProject): Promise<() => void> {
  let first = false
  shared.dshSessionsE2e ??= (async () => {
    first = true
    const started = performance.now()
    const hostBin = await ensureHost()
    report(`host ready (${hostDir()})`, performance.now() - started)
    const tarball = await timed('npm pack', () => Promise.resolve(packPlugin()))
    return { hostBin, tarball }
  })()
  const { hostBin, tarball } = await shared.dshSessionsE2e
  project.provide('hostBin', hostBin)
  project.provide('tarball', tarball)
  return () => { if (first) rmSync(dirname(tarball), { recursive: true, force: true }) }
}
