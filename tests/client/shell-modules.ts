/**
 * The web shell's own client modules, run in the test process. rc.8 publishes
 * `dsh-client-runtime/client`, `dsh-client-locale/client` and
 * `dsh-client-ui-input-trigger/client` only as closure factories for the
 * shell's module loader (`window.__ModuleLoader__.load({ id, factory })`), not
 * as importable modules, so each published file is evaluated against a
 * stand-in loader and its factory called with a module table, as the shell
 * does: react, cordis and `dsh-client-ui-slots` from the test's own copies
 * (the slots package was never published at rc.8; the shell's table holds its
 * own copy, the tests use the pinned rc.6 one), the primitives as given, and
 * the factories themselves for one another.
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as cordis from '@deepseek-ai/cordis'
import * as slots from '@deepseek-ai/dsh-client-ui-slots'
import * as react from 'react'
import * as jsxRuntime from 'react/jsx-runtime'
import type * as Locale from '@deepseek-ai/dsh-client-locale/client'
import type * as Runtime from '@deepseek-ai/dsh-client-runtime/client'
import type * as InputTrigger from '@deepseek-ai/dsh-client-ui-input-trigger/client'

type Factory = (require: (id: string) => unknown) => unknown

/** The shell's runtime, locale and input-trigger modules, materialized. */
export interface ShellModules {
  readonly runtime: typeof Runtime
  readonly locale: typeof Locale
  readonly inputTrigger: typeof InputTrigger
}

const BUNDLES = ['@deepseek-ai/dsh-client-runtime/client', '@deepseek-ai/dsh-client-locale/client', '@deepseek-ai/dsh-client-ui-input-trigger/client']

/**
 * Materializes the shell modules once per test file.
 * @param primitives - what the module table serves as `@deepseek-ai/dsh-client-ui-primitives`.
 * @returns their exports.
 */
export function loadShellModules(primitives: object): ShellModules {
  const factories = new Map<string, Factory>()
  const loader = { load: (registration: { id: string; factory: Factory }) => { factories.set(registration.id, registration.factory) } }
  const resolve = createRequire(import.meta.url)
  for (const bundle of BUNDLES) {
    new Function('window', readFileSync(resolve.resolve(bundle), 'utf8'))({ __ModuleLoader__: loader })
  }
  const table: Record<string, unknown> = {
    'react': react,
    'react/jsx-runtime': jsxRuntime,
    '@deepseek-ai/cordis': cordis,
    '@deepseek-ai/dsh-client-ui-slots': slots,
    '@deepseek-ai/dsh-client-ui-primitives': primitives,
  }
  const require = (id: string): unknown => {
    if (id in table) return table[id]
    const factory = factories.get(id.replace(/\/client$/, ''))
    if (factory === undefined) throw new Error(`require("${id}") missed the module table`)
    table[id] = factory(require)
    return table[id]
  }
  return {
    runtime: require('@deepseek-ai/dsh-client-runtime/client') as typeof Runtime,
    locale: require('@deepseek-ai/dsh-client-locale/client') as typeof Locale,
    inputTrigger: require('@deepseek-ai/dsh-client-ui-input-trigger/client') as typeof InputTrigger,
  }
}
