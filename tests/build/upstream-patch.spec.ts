/**
 * The patches offered upstream, each a `git format-patch` against
 * deepseek-harness `dsh-v0.1.0-rc.8` that stays inside its one package and
 * carries its test; with `DSH_UPSTREAM_GIT` pointing at a clone (or its git
 * directory), each must apply cleanly to that tag.
 *
 * - `0001-web-session-row-menu-slot.patch`: ui-workspace, with both README sides.
 * - `0002-session-reference-linear-retention.patch`: session-reference's
 *   snapshot retention measuring each item once, with its spec.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const patchFile = join(import.meta.dirname, '..', '..', 'upstream', '0001-web-session-row-menu-slot.patch')
const patch = readFileSync(patchFile, 'utf8')
const retentionPatchFile = join(import.meta.dirname, '..', '..', 'upstream', '0002-session-reference-linear-retention.patch')
const retentionPatch = readFileSync(retentionPatchFile, 'utf8')
const upstream = process.env.DSH_UPSTREAM_GIT

/** The files a patch changes. */
const filesOf = (text: string): string[] => [...text.matchAll(/^diff --git a\/(\S+) b\//gm)].map(match => match[1]!)

/** Whether a patch applies cleanly to the tag, checked in a worktree of the upstream clone. */
function checkApplies(file: string): void {
  const checkout = mkdtempSync(join(tmpdir(), 'dsh-upstream-'))
  try {
    execFileSync('git', ['-C', upstream!, 'worktree', 'add', '--detach', checkout, 'dsh-v0.1.0-rc.8'], { stdio: 'ignore' })
    execFileSync('git', ['-C', checkout, 'apply', '--check', file])
  } finally {
    execFileSync('git', ['-C', upstream!, 'worktree', 'remove', '--force', checkout], { stdio: 'ignore' })
    rmSync(checkout, { recursive: true, force: true })
  }
}

describe('the upstream session-row menu slot patch', () => {
  it('is a format-patch touching only ui-workspace, with a test and both READMEs', () => {
    expect(patch.startsWith('From ')).toBe(true)
    const files = filesOf(patch)
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
    checkApplies(patchFile)
  })
})

describe('the upstream session-reference linear retention patch', () => {
  it('is a format-patch touching only session-reference, its projection and its spec', () => {
    expect(retentionPatch.startsWith('From ')).toBe(true)
    expect(retentionPatch).toMatch(/^From: wishp3 <wishp3@users\.noreply\.github\.com>$/m)
    const files = filesOf(retentionPatch)
    for (const file of files) expect(file).toMatch(/^packages\/context\/session-reference\//)
    expect(files).toEqual(expect.arrayContaining([
      'packages/context/session-reference/src/projection.ts',
      'packages/context/session-reference/tests/session-reference.spec.ts',
    ]))
    // The cut comes from item sizes measured once; the head/tail truncation of the longest item stays.
    expect(retentionPatch).toContain('+  const measured = original.map(')
    expect(retentionPatch).toContain('-    const dropIndex = retained.findIndex(')
    expect(retentionPatch).not.toMatch(/^-.*truncateWithNotice/m)
    expect(retentionPatch).toContain("+  it('omits the same oldest messages as re-measuring after every omission, at each budget edge'")
    expect(retentionPatch).toContain("+  it('retains a long session without serializing it again for every omitted message'")
  })

  it.skipIf(upstream === undefined)('applies cleanly to dsh-v0.1.0-rc.8 (skipped: set DSH_UPSTREAM_GIT to a deepseek-harness clone to run it)', () => {
    checkApplies(retentionPatchFile)
  })
})
