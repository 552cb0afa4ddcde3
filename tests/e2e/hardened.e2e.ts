/**
 * The plugin under pressure, on one host deployed with `--trusted-host` and
 * the storage probe (a fixture row that counts each session's log reads and
 * can fail the listing): the fence and hostile input, references the user can
 * trust, and how fast the `@` menu draws at 200 sessions. Hardening comes
 * first: its first test needs the listing that failed at boot.
 */
import { describe } from 'vitest'
import { candidatesLatency } from './hardened/candidates-latency.ts'
import { HARDENED_STACK, hardening } from './hardened/hardening.ts'
import { trustedReferences } from './hardened/trusted-references.ts'
import { useRealHost } from './harness/real-host.ts'

const topics = [hardening, trustedReferences, candidatesLatency]

describe('the plugin under pressure, on a hardened host', () => {
  const host = useRealHost({ stack: HARDENED_STACK, topics })
  for (const topic of topics) topic.tests(host)
})
