/**
 * A throwaway user: `HOME` and `DSH_HOME` in a fresh temporary folder, with
 * project folders directly under `HOME` (the workspace picker opens there):
 * `alpha` and `beta` at once, any other the first time it is asked for,
 * and the temporary folder every process of the run uses, so nothing a run
 * leaves behind outlives it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Project folders every home gets. */
export const PROJECTS = ['alpha', 'beta'] as const


/** A throwaway home. */
export interface Home {
  /** `HOME` of every process the harness starts. */
  readonly home: string
  /** `DSH_HOME`. */
  readonly dshHome: string
  /** `TMPDIR` of every process the harness starts (dsh's spill folders go there). */
  readonly tmp: string
  /** Absolute path of a project folder, made (with the same files as `alpha`'s) the first time it is asked for. */
  project(name: string): string
  /** Deletes the whole home. */
  remove(): void
}

/**
 * Creates a home. The welcome notice is acknowledged in `settings.yaml` so the
 * first page load shows the app, not the modal.
 * @returns the new home.
 */
export function createHome(): Home {
  const home = mkdtempSync(join(tmpdir(), 'dsh-sessions-home-'))
  const dshHome = join(home, '.dsh')
  mkdirSync(dshHome)
  const tmp = join(home, '.tmp')
  mkdirSync(tmp)
  writeFileSync(join(dshHome, 'settings.yaml'), 'ui-onboarding:\n  welcomeNoticeVersion: 2026-08-13.1\n')
  const project = (name: string): string => {
    const dir = join(home, name)
    if (existsSync(dir)) return dir
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, 'README.md'), `# ${name}\n\nA project folder of the dsh-sessions tests.\n`)
    writeFileSync(join(dir, 'notes.txt'), `Notes of ${name}.\n`)
    writeFileSync(join(dir, 'src', 'main.ts'), `export const project = '${name}'\n`)
    return dir
  }
  for (const name of PROJECTS) project(name)
  return {
    home,
    dshHome,
    tmp,
    project,
    remove: () => rmSync(home, { recursive: true, force: true }),
  }
}
