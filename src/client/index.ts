/**
 * `@wishp3/dsh-sessions`, browser half: the closure-factory bundle the web shell loads for the
 * `session-bridge` row.
 * @module @wishp3/dsh-sessions/client
 */
import type {} from '@deepseek-ai/dsh-client-locale/client'
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import { createSessionsApi } from './api.ts'
import { type MarkedText, withMissing } from './core/snippet.ts'
import { copyFeature } from './copy/register.ts'
import { findFeature } from './find/register.ts'
import { relatedFeature } from './related/register.ts'
import { en, NS, zh } from './locales.ts'
import { MatchHighlights } from './official/match-highlights.ts'
import { mentionsFeature } from './mention/register.ts'
import { quotesFeature } from './quote/register.ts'
import { RefusedSends } from './core/refused-sends.ts'
import { referenceDockFeature } from './references/register.ts'
import { settingsCardFeature } from './settings/register.ts'
import { sessionToolsFeature } from './tools/register.ts'

/** The one service every feature speaks through: the dictionaries and their lookup. */
export const inject = ['locale']

/** Registers the dictionaries and starts the features; each is an effect or a child fiber, so disposing the row removes it. */
export function apply(ctx: ClientContext): void {
  ctx.effect(() => ctx.locale.register(NS, { zh, en }), 'dsh-sessions: dictionaries')
  const t = ctx.locale.bind(NS)
  const api = createSessionsApi((input, init) => fetch(input, init))
  const refused = new RefusedSends()
  const matches = new MatchHighlights({ open: () => t('candidate.matchOpen'), close: () => t('candidate.matchClose') })
  // Contained: a page that cannot highlight shows the matches between marks.
  ctx.effect(() => {
    try {
      return matches.start(document)
    } catch (error) {
      console.warn('dsh-sessions: matches are marked, not highlighted, here', error)
      return () => {}
    }
  }, 'dsh-sessions: matches highlighted')
  // A partial match's row says which words the session lacks, as web search does, before its excerpt.
  const excerpt = (snippet: MarkedText): string => withMissing(matches.show(snippet), snippet.missing, words => t('candidate.missing', { words }))
  ctx.plugin(mentionsFeature, { api, t, refused, excerpt })
  ctx.plugin(referenceDockFeature, { api, t, refused })
  ctx.plugin(settingsCardFeature)
  ctx.plugin(quotesFeature, { t })
  ctx.plugin(relatedFeature, { api, highlight: snippet => matches.show(snippet) })
  ctx.plugin(copyFeature, { api, t, excerpt })
  ctx.plugin(findFeature, { api, t })
  ctx.plugin(sessionToolsFeature)
}
