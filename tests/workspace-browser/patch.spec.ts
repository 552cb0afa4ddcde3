/** Our patch of the published ui-workspace bundle: it applies, yields a working factory with the row-menu hooks, and fails naming the anchor when the bundle changed. */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { patchWorkspaceBundle, ROW_MENU_MODULE, SIDEBAR_MODULE, WorkspacePatchError } from '../../src/workspace-browser/patch.ts'

const published = readFileSync(createRequire(import.meta.url).resolve('@deepseek-ai/dsh-client-ui-workspace/client'), 'utf8')

describe('the ui-workspace patch', () => {
  it('applies to the pinned published bundle and yields a factory module with the row-menu hooks', () => {
    const patched = patchWorkspaceBundle(published)
    expect(patched.startsWith('export default function workspaceFactory(require) {\n')).toBe(true)
    expect(patched.trimEnd().endsWith('return module.exports;\n}')).toBe(true)
    expect(patched).not.toContain('__ModuleLoader__')
    expect(patched).not.toContain('sourceMappingURL')
    expect(patched).toContain(`require(${JSON.stringify(ROW_MENU_MODULE)})`)
    expect(patched).toContain('"data-dsh-session-row": node.id,')
    expect(patched).toContain('...dsh_sessions_row_menu.items()')
    expect(patched).toContain('dsh_sessions_row_menu.select(id, node.id);')
    expect(patched).toContain('e.stopPropagation();\n\t\t\t\t\t\t\t\t\t\tif (!menuOpen) dsh_sessions_row_menu.opening(node.id);\n\t\t\t\t\t\t\t\t\t\tsetMenuOpen((v) => !v);')
  })

  it('routes every view of the sessions list, the search call, a chosen result and the empty-result line through the sidebar module', () => {
    const patched = patchWorkspaceBundle(published)
    expect(patched).toContain(`require(${JSON.stringify(SIDEBAR_MODULE)})`)
    expect(patched.split('dsh_sessions_sidebar.useList(useSessions((s) => s))').length - 1).toBe(3)
    expect(patched).not.toMatch(/const list = useSessions\(/)
    expect(patched).toContain('const searchSessions = (query, signal) => dsh_sessions_sidebar.search(query, signal, hostSearchSessions);')
    expect(patched).toContain('dsh_sessions_sidebar.openResult(result.id, onOpen);')
    expect(patched).not.toMatch(/onClick: \(\) => \{\s*onOpen\(result\.id\);/)
    expect(patched).toContain('results.items.length === 0 && dsh_sessions_sidebar.indexingNote(query) === void 0')
    expect(patched).toContain('onKeyDown: dsh_sessions_sidebar.resultsKeyDown,')
    expect(patched).toContain('if (dsh_sessions_sidebar.searchBoxKeyDown(e)) return;')
  })

  it('fails naming an anchor that no longer occurs as often as it did', () => {
    const changed = published.replace('const list = useSessions((s) => s);', 'const list = useSessions((state) => state);')
    expect(() => patchWorkspaceBundle(changed)).toThrow(WorkspacePatchError)
    expect(() => patchWorkspaceBundle(changed)).toThrow(/"sessions list views" found 2 times .*expected 3 times/)
  })

  it('produces a factory that runs against the shell modules and returns apply and inject', () => {
    const source = patchWorkspaceBundle(published).replace('export default function workspaceFactory', 'return function workspaceFactory')
    const factory = new Function(source)() as (require: (id: string) => unknown) => { apply: unknown; inject: unknown }
    const required: string[] = []
    const exports = factory(id => {
      required.push(id)
      return new Proxy({}, { get: () => () => null })
    })
    expect(typeof exports.apply).toBe('function')
    expect(exports.inject).toEqual(['slots', 'sessions', 'workspaces', 'locale', 'connection'])
    expect(required.sort()).toEqual(['@deepseek-ai/dsh-client-runtime/client', '@deepseek-ai/dsh-client-ui-primitives', ROW_MENU_MODULE, SIDEBAR_MODULE, 'react', 'react/jsx-runtime'].sort())
  })

  it.each([
    ['session menu items', (text: string) => text.replace('IconArchiveOutline20, { size: 16 })\n\t\t\t\t}\n\t\t\t];', 'IconArchiveOutline20, { size: 16 }) }];')],
    ['session menu select', (text: string) => text.replace('if (id === "archive") onArchive(node.id);', 'if (id === "archive") { onArchive(node.id); }')],
    ['session row element', (text: string) => text.replace('role: "treeitem",\n\t\t\t\t\t"aria-selected": selected,', 'role: "treeitem", "aria-selected": selected,')],
    ['module wrapper head', (text: string) => text.replace('@deepseek-ai/dsh-client-ui-workspace', '@deepseek-ai/dsh-client-ui-workspace-next')],
    ['session menu select', (text: string) => `${text}\nif (id === "archive") onArchive(node.id);`],
    ['session menu button', (text: string) => text.replace('t("actions.session.aria", { name: title }),\n', 't("actions.session.aria", { name: title }), ')],
  ])('fails the build naming the anchor "%s" when the published bundle changed', (anchor, change) => {
    expect(() => patchWorkspaceBundle(change(published))).toThrow(WorkspacePatchError)
    expect(() => patchWorkspaceBundle(change(published))).toThrow(`anchor "${anchor}"`)
  })
})
