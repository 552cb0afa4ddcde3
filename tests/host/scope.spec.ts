/** Scope: who may cite whom, ranked as the official candidate list ranks (same cwd, no cwd, other cwds; newest first within a group). */
import { describe, expect, it } from 'vitest'
import { catalogEntry } from '../../src/host/sessions/catalog-entries.ts'
import { isInScope, rankedInScope, rankGroup } from '../../src/host/sessions/scope.ts'

const target = { id: 't', cwd: '/w/alpha' }

describe('scope', () => {
  it('admits the same cwd under workspace, every other session under all, and never the target itself', () => {
    expect(isInScope('workspace', target, { id: 'a', cwd: '/w/alpha' })).toBe(true)
    expect(isInScope('workspace', target, { id: 'b', cwd: '/w/beta' })).toBe(false)
    expect(isInScope('workspace', target, { id: 'n' })).toBe(false)
    expect(isInScope('workspace', target, { id: 'p', cwd: '/w/alpha/' })).toBe(false)
    expect(isInScope('all', target, { id: 'b', cwd: '/w/beta' })).toBe(true)
    expect(isInScope('all', target, { id: 't', cwd: '/w/alpha' })).toBe(false)
    expect(isInScope('workspace', { id: 't', cwd: undefined }, { id: 'n' })).toBe(false)
  })

  it('ranks same cwd, then no cwd, then other cwds, keeping the given newest-first order inside each group', () => {
    expect([rankGroup('/w/alpha', '/w/alpha'), rankGroup(undefined, '/w/alpha'), rankGroup('/w/beta', '/w/alpha')]).toEqual([0, 1, 2])
    const sessions = [
      catalogEntry({ id: 'b1', cwd: '/w/beta', createdAt: 9 }, undefined),
      catalogEntry({ id: 'n1', createdAt: 8 }, undefined),
      catalogEntry({ id: 'a1', cwd: '/w/alpha', createdAt: 7 }, undefined),
      catalogEntry({ id: 't', cwd: '/w/alpha', createdAt: 6 }, undefined),
      catalogEntry({ id: 'a2', cwd: '/w/alpha', createdAt: 5 }, undefined),
    ]
    expect(rankedInScope(sessions, target, 'all').map(session => session.id)).toEqual(['a1', 'a2', 'n1', 'b1'])
    expect(rankedInScope(sessions, target, 'workspace').map(session => session.id)).toEqual(['a1', 'a2'])
  })
})
