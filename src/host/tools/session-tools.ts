/**
 * Offers the model the session tools, `search_sessions` and `read_session`, while the `agentTools`
 * setting is on.
 * @module @wishp3/dsh-sessions/host/tools/session-tools
 */
import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-tools'
import type { ContentSearch } from '../search/content-search.ts'
import type { SessionCatalog } from '../sessions/session-catalog.ts'
import type { SessionsSettings } from '../settings.ts'
import { readSessionTool } from './read-session.ts'
import { searchSessionsTool } from './search-sessions.ts'
import { Framing } from '../official/session-reference.ts'

/** What the tools read. */
export interface SessionToolsDependencies {
  readonly catalog: SessionCatalog
  readonly content: ContentSearch
  readonly settings: SessionsSettings
}

/** Registers the tools on the row's fiber. */
export function registerSessionTools(ctx: Context, deps: SessionToolsDependencies): void {
  ctx.plugin({
    name: 'dsh-sessions-tools',
    inject: ['tools'],
    apply(ctx: Context) {
      const own = { ...deps, framing: new Framing() }
      const definitions = [searchSessionsTool(ctx, own), readSessionTool(ctx, own)]
      let unregister: (() => void)[] = []
      const withdraw = () => { for (const dispose of unregister.splice(0)) dispose() }
      const sync = () => {
        const wanted = deps.settings.current().agentTools
        if (wanted && unregister.length === 0) unregister = definitions.map(definition => ctx.tools.register(definition))
        else if (!wanted) withdraw()
      }
      ctx.effect(() => {
        sync()
        const off = deps.settings.onChange(sync)
        return () => {
          off()
          withdraw()
        }
      }, 'dsh-sessions: session tools')
    },
  })
}
