/**
 * `upstream/0001-web-session-row-menu-slot.patch` is a `git format-patch`
 * against deepseek-harness `dsh-v0.1.0-rc.8` that stays inside ui-workspace
 * and carries its test and both README sides; with `DSH_UPSTREAM_GIT`
 * pointing at a clone (or its git directory), it must apply cleanly to that tag.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const patchFile = join(import.meta.dirname, '..', '..', 'upstream', '0001-web-session-row-menu-slot.patch')
const patch = readFileSync(patchFile, 'utf8')
const upstream = process.env.DSH_UPSTREAM_GIT

describe('the upstream session-row menu slot patch', () => {
  it('is a format-patch touching only ui-workspace, with a test and both READMEs', () => {
    expect(patch.startsWith('From ')).toBe(true)
    const files = [...patch.matchAll(/^diff --git a\/(\S+) b\//gm)].map(match => match[1])
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) expect(file).toMatch(/^packages\/client\/ui-workspace\//)
    expect(files).toEqual(expect.arrayContaining([
      'packages/client/ui-workspace/src/client/contract/slots.ts',
      'packages/client/ui-workspace/tests/session-menu.client.spec.tsx',
      'packages/client/ui-workspace/README.md',
      'packages/client/ui-workspace/README.zh.md',
    ]))
    expect(patch).toContain("'sidebar.workspaces.sessionMenu': { kind: 'list'; scope: 'root'; owner: SessionMenuOwnerProps }")
  })

  it.skipIf(upstream === undefined)('applies cleanly to dsh-v0.1.0-rc.8 (skipped: set DSH_UPSTREAM_GIT to a deepseek-harness clone to run it)', () => {
    const checkout = mkdtempSync(join(tmpdir(), 'dsh-upstream-'))
    try {
      execFileSync('git', ['-C', upstream!, 'worktree', 'add', '--detach', checkout, 'dsh-v0.1.0-rc.8'], { stdio: 'ignore' })
      execFileSync('git', ['-C', checkout, 'apply', '--check', patchFile])
    } finally {
      execFileSync('git', ['-C', upstream!, 'worktree', 'remove', '--force', checkout], { stdio: 'ignore' })
      rmSync(checkout, { recursive: true, force: true })
    }
  })
})
