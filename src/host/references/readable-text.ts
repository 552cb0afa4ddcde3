/**
 * What keeps a resolved, readable text inert for the parsers that read it after this plugin's step: no
 * parseable session URI, and no run of `@[` the official parser would rescan in quadratic time.
 * @module @wishp3/dsh-sessions/host/references/readable-text
 */
import { SESSION_REFERENCE_SCHEME } from '@deepseek-ai/dsh-session-reference'
import { labelEnds } from '../../shared/message-reference.ts'

/** No label end from here (see `labelEnds`). */
const NONE = -1

/** Word joiner: inserted after the scheme name so no later parser reads a URI. */
const WORD_JOINER = '\u2060'

/** Makes every `dsh-session:` in a text inert for URI parsers without a visible change: a word joiner goes between the scheme name and its colon. */
export function defuseSessionUris(text: string): string {
  return text.replaceAll(SESSION_REFERENCE_SCHEME, `${SESSION_REFERENCE_SCHEME.slice(0, -1)}${WORD_JOINER}:`)
}

/** Most characters the official parser may rescan over all of a text's unclosed `@[`s; see {@link boundLabelScans}. */
const MAX_LABEL_SCAN = 262_144

/** Keeps the official parser's scan of a text linear. That parser (which the host's own session-reference step runs on every user message after this plugin's step) rescans from every `@[` to where its label would end, so a text of many unclosed `@[`s costs it quadratic time. When those rescans would cover more than {@link MAX_LABEL_SCAN} characters, a word joiner goes between every `@` and `[`: no visible change, and no `@[` left to rescan. Only for a text that holds no canonical mention (every one was already rewritten), so nothing it names changes. */
export function boundLabelScans(text: string): string {
  let at = text.indexOf('@[')
  if (at === -1) return text
  const ends = labelEnds(text)
  let cost = 0
  for (; at !== -1; at = text.indexOf('@[', at + 1)) {
    const end = ends[at + 2]!
    cost += (end === NONE ? text.length : end) - at
    if (cost > MAX_LABEL_SCAN) return text.replaceAll('@[', `@${WORD_JOINER}[`)
  }
  return text
}
