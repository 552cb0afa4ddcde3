/**
 * Real titles for the sidebar's rows.
 * @module @wishp3/dsh-sessions/client/core/titles
 */

/** What the rows read of one session summary. */
export interface TitledSummary {
  readonly id: string
  /** The host's durable title; absent when the row falls back to the workspace's name. */
  readonly title?: string | undefined
  readonly displayTitle: string
  readonly blank: boolean
}

/** What the rows read of the sessions list. */
export interface SummaryList {
  readonly ids: readonly string[]
  readonly byId: Readonly<Record<string, TitledSummary | undefined>>
}

/** Sessions whose rows show a fallback instead of a title. */
export function untitledIds(list: SummaryList): string[] {
  const ids: string[] = []
  for (const id of list.ids) {
    const summary = list.byId[id]
    if (summary !== undefined && summary.title === undefined && !summary.blank) ids.push(id)
  }
  return ids
}

/** The list with known titles in the rows that fall back. `titles`: titles the plugin knows, by session id. Returns the same list when no row changes, else a copy with those rows' `displayTitle` replaced. */
export function withTitles<L extends SummaryList>(list: L, titles: ReadonlyMap<string, string>): L {
  let byId: Record<string, TitledSummary | undefined> | undefined
  for (const id of list.ids) {
    const summary = list.byId[id]
    if (summary === undefined || summary.title !== undefined || summary.blank) continue
    const title = titles.get(id)
    if (title === undefined || title === summary.displayTitle) continue
    byId ??= { ...list.byId }
    byId[id] = { ...summary, displayTitle: title }
  }
  return byId === undefined ? list : { ...list, byId }
}
