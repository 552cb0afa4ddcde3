/**
 * This project's patch to the published `@deepseek-ai/dsh-client-ui-workspace` 0.1.0-rc.8 browser bundle.
 * @module @wishp3/dsh-sessions/workspace-browser/patch
 */

/** Specifier the patched factory requires for the added row-menu behaviour. */
export const ROW_MENU_MODULE = '@wishp3/dsh-sessions/row-menu'

/** Specifier the patched factory requires for the sidebar's search and titles. */
export const SIDEBAR_MODULE = '@wishp3/dsh-sessions/sidebar'

interface Edit {
  /** Named in the build error when the anchor does not occur exactly once. */
  readonly anchor: string
  readonly find: string
  readonly replace: string
  /** How many times the anchor occurs (each is replaced); once unless told. */
  readonly count?: number
}

const EDITS: readonly Edit[] = [
  {
    anchor: 'module wrapper head',
    find: 'window.__ModuleLoader__.load({\n\tid: "@deepseek-ai/dsh-client-ui-workspace",\n\tfactory: (require) => {\n',
    replace: 'export default function workspaceFactory(require) {\n',
  },
  {
    anchor: 'module wrapper tail',
    find: '\t\treturn module.exports;\n\t}\n});',
    replace: '\t\treturn module.exports;\n}',
  },
  {
    anchor: 'primitives require',
    find: 'let _deepseek_ai_dsh_client_ui_primitives = require("@deepseek-ai/dsh-client-ui-primitives");',
    replace: `let _deepseek_ai_dsh_client_ui_primitives = require("@deepseek-ai/dsh-client-ui-primitives");\n\t\tlet dsh_sessions_row_menu = require(${JSON.stringify(ROW_MENU_MODULE)});\n\t\tlet dsh_sessions_sidebar = require(${JSON.stringify(SIDEBAR_MODULE)});`,
  },
  {
    anchor: 'sessions list views',
    find: 'const list = useSessions((s) => s);',
    replace: 'const list = dsh_sessions_sidebar.useList(useSessions((s) => s));',
    count: 3,
  },
  {
    anchor: 'host search call',
    find: 'const searchSessions = async (query, signal) => {\n\t\t\t\tconst result = await ctx.sessions.search(query, signal);\n\t\t\t\tif (!result.ok) throw new Error(result.error.message);\n\t\t\t\treturn result.value;\n\t\t\t};',
    replace: 'const hostSearchSessions = async (query, signal) => {\n\t\t\t\tconst result = await ctx.sessions.search(query, signal);\n\t\t\t\tif (!result.ok) throw new Error(result.error.message);\n\t\t\t\treturn result.value;\n\t\t\t};\n\t\t\tconst searchSessions = (query, signal) => dsh_sessions_sidebar.search(query, signal, hostSearchSessions);',
  },
  {
    anchor: 'search result open',
    find: 'onClick: () => {\n\t\t\t\t\tonOpen(result.id);\n\t\t\t\t},',
    replace: 'onClick: () => {\n\t\t\t\t\tdsh_sessions_sidebar.openResult(result.id, onOpen);\n\t\t\t\t},',
  },
  {
    anchor: 'search results tree',
    find: '"aria-label": t("search.results.aria"),',
    replace: '"aria-label": t("search.results.aria"),\n\t\t\t\t\t\t\t"data-dsh-sessions-results": "",\n\t\t\t\t\t\t\tonKeyDown: dsh_sessions_sidebar.resultsKeyDown,',
  },
  {
    anchor: 'search box keys',
    find: 'onKeyDown: (e) => {\n\t\t\t\t\t\t\t\t\t\t\t\tif (e.key !== "Escape") return;',
    replace: 'onKeyDown: (e) => {\n\t\t\t\t\t\t\t\t\t\t\t\tif (dsh_sessions_sidebar.searchBoxKeyDown(e)) return;\n\t\t\t\t\t\t\t\t\t\t\t\tif (e.key !== "Escape") return;',
  },
  {
    anchor: 'search no matches',
    find: '!pending && results.items.length === 0 && (0, react_jsx_runtime.jsx)("div", {',
    replace: '!pending && dsh_sessions_sidebar.indexingNote(query) !== void 0 && (0, react_jsx_runtime.jsx)("div", {\n\t\t\t\t\t\t\tclassName: WorkspaceBrowser_module_css_default.searchStatus,\n\t\t\t\t\t\t\trole: "status",\n\t\t\t\t\t\t\tchildren: dsh_sessions_sidebar.indexingNote(query)\n\t\t\t\t\t\t}),\n\t\t\t\t\t\t!pending && results.items.length === 0 && dsh_sessions_sidebar.indexingNote(query) === void 0 && (0, react_jsx_runtime.jsx)("div", {',
  },
  {
    anchor: 'session row element',
    find: 'role: "treeitem",\n\t\t\t\t\t"aria-selected": selected,',
    replace: 'role: "treeitem",\n\t\t\t\t\t"aria-selected": selected,\n\t\t\t\t\t"data-dsh-session-row": node.id,',
  },
  {
    anchor: 'session menu items',
    find: 'icon: (0, react_jsx_runtime.jsx)(_deepseek_ai_dsh_client_ui_primitives.IconArchiveOutline20, { size: 16 })\n\t\t\t\t}\n\t\t\t];',
    replace: 'icon: (0, react_jsx_runtime.jsx)(_deepseek_ai_dsh_client_ui_primitives.IconArchiveOutline20, { size: 16 })\n\t\t\t\t},\n\t\t\t\t...dsh_sessions_row_menu.items()\n\t\t\t];',
  },
  {
    anchor: 'session menu button',
    find: '"aria-label": t("actions.session.aria", { name: title }),\n\t\t\t\t\t\t\t\t\tonClick: (e) => {\n\t\t\t\t\t\t\t\t\t\te.stopPropagation();\n',
    replace: '"aria-label": t("actions.session.aria", { name: title }),\n\t\t\t\t\t\t\t\t\tonClick: (e) => {\n\t\t\t\t\t\t\t\t\t\te.stopPropagation();\n\t\t\t\t\t\t\t\t\t\tif (!menuOpen) dsh_sessions_row_menu.opening(node.id);\n',
  },
  {
    anchor: 'session menu select',
    find: 'if (id === "archive") onArchive(node.id);',
    replace: 'if (id === "archive") onArchive(node.id);\n\t\t\t\t\t\t\t\t\tdsh_sessions_row_menu.select(id, node.id);',
  },
]

/** Thrown when the published bundle does not match the patch. */
export class WorkspacePatchError extends Error {
  override readonly name = 'WorkspacePatchError'
}

/** Applies the patch. Throws {WorkspacePatchError} naming the first anchor that is missing or repeated. */
export function patchWorkspaceBundle(source: string): string {
  let text = source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')
  for (const edit of EDITS) {
    const count = text.split(edit.find).length - 1
    const expected = edit.count ?? 1
    if (count !== expected) {
      throw new WorkspacePatchError(`ui-workspace patch: anchor "${edit.anchor}" found ${count} times in the published bundle (expected ${expected === 1 ? 'once' : `${expected} times`}); update src/workspace-browser/patch.ts for this dsh version`)
    }
    text = text.replaceAll(edit.find, () => edit.replace)
  }
  return text
}
