/** Every bench mode, in the order a plain `npm run bench` runs its default ones. */
import type { BenchMode } from './mode.ts'
import { agentReads } from './modes/agent-reads.ts'
import { candidates } from './modes/candidates.ts'
import { content } from './modes/content.ts'
import { firstPreflight } from './modes/first-preflight.ts'
import { fresh } from './modes/fresh.ts'
import { hostile } from './modes/hostile.ts'
import { parts } from './modes/parts.ts'
import { preStep } from './modes/pre-step.ts'
import { readOnce } from './modes/read-once.ts'
import { relevance } from './modes/relevance.ts'
import { sidebar } from './modes/sidebar.ts'
import { scoped } from './modes/scoped.ts'
import { since } from './modes/since.ts'
import { tools } from './modes/tools.ts'
import { tti } from './modes/tti.ts'
import { typing } from './modes/typing.ts'

/** Every mode `--only` can name. */
export const MODES: readonly BenchMode[] = [candidates, preStep, hostile, readOnce, tti, content, sidebar, parts, since, tools, firstPreflight, scoped, agentReads, relevance, fresh, typing]

/** What `npm run bench` runs without `--only`: the real-host candidates run and what it always measured with it. */
export const DEFAULT_MODES: readonly string[] = ['candidates', 'pre-step', 'hostile', 'read-once', 'tti', 'content', 'sidebar']
