/**
 * What the user picks from, on one host with the plugin: the sidebar row's
 * and the header's copy actions, typed `@Title` mentions, the `@` menu with
 * its chips and scope, and the settings card. The seeds that fill alpha come
 * last, so the sidebar opens alpha; the topics that write settings come
 * last, so the earlier ones read the row configuration.
 */
import { describe } from 'vitest'
import { useRealHost } from './harness/real-host.ts'
import { copyActions } from './menus/copy-actions.ts'
import { mentions } from './menus/mentions.ts'
import { settingsCard } from './menus/settings-card.ts'
import { titleMentions } from './menus/title-mentions.ts'

describe('menus, on a host with the plugin', () => {
  const host = useRealHost({ topics: [mentions, titleMentions, copyActions, settingsCard] })
  for (const topic of [copyActions, titleMentions, mentions, settingsCard]) topic.tests(host)
})
