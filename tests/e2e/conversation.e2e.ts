/**
 * The conversation on one host with the plugin and its defaults: the boot
 * and the plugin list, quoting, references in every written form, part
 * references and the way back, related sessions while drafting, and a
 * history loaded again. Boot comes first:
 * it reads the host's output and the stand-in's first reply.
 */
import { describe } from 'vitest'
import { boot } from './conversation/boot.ts'
import { history } from './conversation/history.ts'
import { partReferences } from './conversation/part-references.ts'
import { quotes } from './conversation/quotes.ts'
import { references } from './conversation/references.ts'
import { related } from './conversation/related.ts'
import { useRealHost } from './harness/real-host.ts'

const topics = [boot, references, quotes, partReferences, related, history]

describe('the conversation, on a host with the plugin', () => {
  const host = useRealHost({ topics })
  for (const topic of topics) topic.tests(host)
})
