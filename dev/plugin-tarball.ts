/** The plugin as users install it: the tarball `npm pack` makes of the built checkout. */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { repoRoot } from './paths.ts'

/**
 * Packs the built checkout. The build must have run: packing skips the
 * `prepack` rebuild so a test run packs exactly what it built.
 * @returns the tarball's absolute path.
 */
export function packPlugin(): string {
  for (const file of ['lib/index.js', 'lib/client.js']) {
    if (!existsSync(join(repoRoot, file))) throw new Error(`${file} is missing: run the build first`)
  }
  const destination = mkdtempSync(join(tmpdir(), 'dsh-sessions-pack-'))
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
  const [entry] = JSON.parse(out) as { filename: string }[]
  if (entry === undefined) throw new Error('npm pack produced no tarball')
  return join(destination, entry.filename)
}
