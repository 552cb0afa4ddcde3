/**
 * A throwaway user: `HOME` and `DSH_HOME` in a fresh temporary folder, with
 * two project folders directly under `HOME` (the workspace picker opens there)
 * and the temporary folder every process of the run uses, so nothing a run
 * leaves behind outlives it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Project folders every home gets. */
export const PROJECTS = ['alpha', 'beta'] as const

/** One project folder name. */
export type Project = (typeof PROJECTS)[number]

/** A throwaway home. */
export interface Home {
  /** `HOME` of every process the harness starts. */
  readonly home: string
  /** `DSH_HOME`. */
  readonly dshHome: string
  /** `TMPDIR` of every process the harness starts (dsh's spill folders go there). */
  readonly tmp: string
  /** Absolute path of a project folder. */
  project(name: Project): string
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
  for (const name of PROJECTS) {
    const dir = join(home, name)
    mkdirSync(join(dir, 'src'), { recursive: true })
    writeFileSync(join(dir, 'README.md'), `# ${name}\n\nA project folder of the dsh-sessions tests.\n`)
    writeFileSync(join(dir, 'notes.txt'), `Notes of ${name}.\n`)
    writeFileSync(join(dir, 'src', 'main.ts'), `export const project = '${name}'\n`)
  }
  return {
    home,
    dshHome,
    tmp,
    project: name => join(home, name),
    remove: () => rmSync(home, { recursive: true, force: true }),
  }
}
