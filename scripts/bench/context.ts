/**
 * The bench's one set-up: the pinned host installed once, the plugin packed
 * once (removed when the run ends), and stacks from `dev/stack.ts` that the
 * run stops at its end whatever a mode left running.
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { ensureHost } from '../../dev/pinned-host.ts'
import { packPlugin } from '../../dev/plugin-tarball.ts'
import { type Stack, startStack } from '../../dev/stack.ts'
import type { BenchContext, BenchSettings } from './mode.ts'

/** A run's set-up, shared by its modes. */
export interface Bench {
  /** The context one mode runs with. */
  context(mode: string): BenchContext
  /** Stops every stack still running and removes the tarball. */
  close(): Promise<void>
}

/**
 * Installs the host if needed and prepares the rest lazily.
 * @param settings - the parsed options.
 * @returns the set-up.
 */
export async function openBench(settings: BenchSettings): Promise<Bench> {
  const hostBin = await ensureHost()
  let tarball: string | undefined
  const stacks = new Set<Stack>()
  return {
    context: mode => ({
      settings,
      hostBin,
      tarball: () => (tarball ??= packPlugin()),
      async stack(setup) {
        const stack = await startStack({ ...setup, hostBin })
        stacks.add(stack)
        const stop = stack.stop
        stack.stop = async () => {
          stacks.delete(stack)
          await stop()
        }
        return stack
      },
      sessions() {
        if (settings.sessions.length !== 1) throw new Error(`bench ${mode}: --sessions takes one size here, not ${settings.sessions.join(',')}`)
        return settings.sessions[0]!
      },
      progress: text => { process.stderr.write(`[${mode}] ${text}\n`) },
    }),
    async close() {
      for (const stack of [...stacks]) await stack.stop().catch((error: unknown) => { process.stderr.write(`[bench] stopping a stack: ${String(error)}\n`) })
      if (tarball !== undefined) rmSync(dirname(tarball), { recursive: true, force: true })
    },
  }
}
