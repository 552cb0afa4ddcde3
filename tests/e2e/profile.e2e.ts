/**
 * The web profile as a user edits it, on one host: a hand-written invalid
 * `dsh-sessions` section that must not break the boot, then
 * `dsh plugin remove`, which leaves a profile that boots without the plugin.
 * Removal comes last: it ends the plugin's part of the host.
 */
import { describe } from 'vitest'
import { useRealHost } from './harness/real-host.ts'
import { remove } from './profile/remove.ts'
import { settingsFallback } from './profile/settings-fallback.ts'

const topics = [settingsFallback, remove]

describe('the web profile, edited by hand and by dsh plugin', () => {
  const host = useRealHost({ topics })
  for (const topic of topics) topic.tests(host)
})
