/**
 * The sidebar module the patched workspace browser requires (see `workspace-browser/contract.ts`).
 * @module @wishp3/dsh-sessions/client/sidebar/sidebar
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { useEffect, useMemo, useSyncExternalStore } from 'react'
import type { SessionsApi } from '../api.ts'
import type { MarkedText } from '../core/snippet.ts'
import { untitledIds, withTitles } from '../core/titles.ts'
import type { SessionsLookup } from '../locales.ts'
import type { Sidebar } from '../../workspace-browser/contract.ts'
import { openAtMessage } from '../navigation/open-at-message.ts'
import { firstSearchResultRow, treeRows } from '../official/markup.ts'
import { focusedElement } from '../official/page-writes.ts'
import { sessionList } from '../official/session-list.ts'
import { SidebarSearch } from './search.ts'
import { TitleStore } from './titles.ts'

/** Builds the module. */
export function createSidebar(sessions: ClientContext['sessions'], api: Pick<SessionsApi, 'search' | 'titles'>, rows: { readonly t: SessionsLookup; readonly excerpt: (snippet: MarkedText) => string }): Sidebar {
  const { t, excerpt } = rows
  const titles = new TitleStore(api)
  // The plugin's route is asked for as many sessions as the host's sidebar shows of an answer: it makes an excerpt of each.
  const search = new SidebarSearch({ search: (query, signal) => api.search(query, sessions.searchResultLimit, signal) }, t, { titles, excerpt, list: sessionList(sessions) })
  return {
    search: (query, signal, hostSearch) => search.search(query, signal, hostSearch),
    indexingNote: query => search.indexingNote(query),
    openResult(sessionId, open) {
      const seq = search.matchOf(sessionId)?.seq
      if (seq === undefined) open(sessionId)
      else void openAtMessage(sessions, { sessionId, seq })
    },
    useList(list) {
      const version = useSyncExternalStore(titles.subscribe, titles.version)
      useEffect(() => { titles.want(untitledIds(list)) }, [list])
      // `version` changes when titles arrive, so the rows re-render with them.
      return useMemo(() => withTitles(list, titles.titles), [list, version])
    },
    resultsKeyDown(event) {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return
      const tree = event.currentTarget as HTMLElement
      const rows = treeRows(tree)
      const focused = focusedElement(document)
      const at = focused === null ? -1 : rows.indexOf(focused)
      const next = rows[Math.max(0, Math.min(rows.length - 1, at + (event.key === 'ArrowDown' ? 1 : -1)))]
      if (next === undefined) return
      event.preventDefault()
      next.focus()
    },
    searchBoxKeyDown(event) {
      if (event.key !== 'ArrowDown') return false
      const first = firstSearchResultRow()
      if (first === null) return false
      event.preventDefault()
      first.focus()
      return true
    },
  }
}
