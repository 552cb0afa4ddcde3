/**
 * Finding a session by what was said in it, on one host whose store other
 * processes wrote without the host's title cache: the sidebar's search box,
 * the agent's session tools and the references it reads on demand, and the
 * `@` menu's content matches, finding what a person means on all three, and
 * finding inside one long session. Each topic
 * has words of its own, and the agent's and the `@` menu's topics their own
 * workspaces. The `@`
 * menu comes last: its last test restarts the host.
 */
import { describe } from 'vitest'
import { useRealHost } from './harness/real-host.ts'
import { agentReads } from './search/agent-reads.ts'
import { agentTools } from './search/agent-tools.ts'
import { contentSearch } from './search/content-search.ts'
import { findInSession } from './search/find-in-session.ts'
import { meaning } from './search/meaning.ts'
import { sidebarSearch } from './search/sidebar-search.ts'

describe('finding sessions by what was said, on one host', () => {
  // The sidebar's sessions are written last, so its alpha group shows them first.
  const host = useRealHost({ topics: [findInSession, meaning, contentSearch, agentTools, agentReads, sidebarSearch] })
  for (const topic of [sidebarSearch, findInSession, agentTools, agentReads, meaning, contentSearch]) topic.tests(host)
})
