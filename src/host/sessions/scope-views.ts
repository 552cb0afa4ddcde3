/**
 * The sessions of each scope, kept while the session catalog's listing stays the same, so a query walks
 * only what it shows.
 * @module @wishp3/dsh-sessions/host/sessions/scope-views
 */
import type { ReferenceScope } from '../../config.ts'
import { BoundedMap } from '../bounded-map.ts'
import { JoinedText } from './joined-text.ts'
import { MatchMemo } from './match-memo.ts'
import { rankGroup } from './scope.ts'
import type { CatalogedSession, SessionCatalog } from './session-catalog.ts'

/** The ids a scope admits, named by a key: equal keys and equal objects, equal sets. */
export interface ScopeSet {
  /** `all`, or `workspace` and the cwd. */
  readonly key: string
  /** The same object while the sessions of the scope stay the same. */
  readonly ids: ReadonlySet<string>
}

/** A scope as seen from one cwd. */
export interface ScopeView {
  /** The in-scope sessions, best first (the target's own among them where its cwd is the scope's). */
  readonly ranked: readonly CatalogedSession[]
  readonly set: ScopeSet
  /** The sessions of {@link ranked} whose id, cwd or label holds the typed text, in order. */
  matching(typed: string): readonly CatalogedSession[]
  /** The given sessions (in the listing's order) that are in the view, in its order. */
  inOrder(sessions: readonly CatalogedSession[]): CatalogedSession[]
}

/** Views kept: the most recently used. */
const VIEWS_KEPT = 16

interface HeldSet {
  readonly membership: number
  readonly set: ScopeSet
}

interface HeldView {
  readonly generation: number
  readonly view: ScopeView
}

/** The views of one session catalog. */
export class ScopeViews {
  private readonly catalog: SessionCatalog
  private readonly sets = new BoundedMap<string, HeldSet>(VIEWS_KEPT)
  private readonly views = new BoundedMap<string, HeldView>(VIEWS_KEPT)
  /** Every listed session's id, cwd and label, joined, for the listing they were read from. */
  private keys: { readonly listing: readonly CatalogedSession[]; readonly text: JoinedText } | undefined

  constructor(catalog: SessionCatalog) {
    this.catalog = catalog
  }

  /** A scope as a target of this cwd sees it. */
  of(scope: ReferenceScope, cwd: string | undefined): ScopeView {
    const key = `${scope}\u0000${cwd === undefined ? '' : `=${cwd}`}`
    const generation = this.catalog.generation
    const held = this.views.get(key)
    const view = held?.generation === generation ? held.view : this.view(scope, cwd)
    this.views.set(key, { generation, view })
    return view
  }

  /** Every listed session: the scope `all` (ranked as for a target without a cwd). */
  everyone(): ScopeView {
    return this.of('all', undefined)
  }

  private view(scope: ReferenceScope, cwd: string | undefined): ScopeView {
    const inOrder = (sessions: readonly CatalogedSession[]): CatalogedSession[] => {
      const groups: [CatalogedSession[], CatalogedSession[], CatalogedSession[]] = [[], [], []]
      for (const session of sessions) {
        const group = rankGroup(session.cwd, cwd)
        if (scope === 'all' || group === 0) groups[group].push(session)
      }
      return groups.flat()
    }
    const listing = this.catalog.list()
    const ranked = inOrder(listing)
    const set = this.setOf(scope === 'all' ? 'all' : `workspace\u0000${cwd ?? ''}`, ranked)
    const memo = new MatchMemo<CatalogedSession>()
    const holds = (session: CatalogedSession, typed: string): boolean => session.matchKeys.some(key => key.includes(typed))
    return {
      ranked,
      set,
      matching: typed => memo.get(0, typed, { listing: () => inOrder(this.holding(listing, typed)), test: session => holds(session, typed), narrows: earlier => typed.includes(earlier) }),
      inOrder,
    }
  }

  /** The sessions of a listing whose id, cwd or label holds the typed text, in its order. */
  private holding(listing: readonly CatalogedSession[], typed: string): CatalogedSession[] {
    if (this.keys?.listing !== listing) this.keys = { listing, text: new JoinedText(listing.map(session => session.matchKeys.join('\u0000'))) }
    return this.keys.text.holding(typed).map(n => listing[n]!)
  }

  /** The set of a scope's ids: the one held while membership is unchanged. */
  private setOf(key: string, ranked: readonly CatalogedSession[]): ScopeSet {
    const membership = this.catalog.membership
    const held = this.sets.get(key)
    const set = held?.membership === membership ? held.set : { key, ids: new Set(ranked.map(session => session.id)) }
    this.sets.set(key, { membership, set })
    return set
  }
}

const viewsByIndex = new WeakMap<SessionCatalog, ScopeViews>()

/** The scope views of a session catalog, made at first use. */
export function scopeViewsOf(catalog: SessionCatalog): ScopeViews {
  let views = viewsByIndex.get(catalog)
  if (views === undefined) {
    views = new ScopeViews(catalog)
    viewsByIndex.set(catalog, views)
  }
  return views
}
