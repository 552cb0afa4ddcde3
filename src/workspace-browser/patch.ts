/**
 * This project's patch to the published `@deepseek-ai/dsh-client-ui-workspace`
 * 0.1.0-rc.8 browser bundle. Applied at build time, in the spirit of
 * patch-package: every edit is anchored on text that must occur exactly once
 * in the published file, and a missing or repeated anchor fails the build
 * naming it, so a changed upstream bundle never ships half-patched.
 *
 * The result is an ES module whose default export is the bundle's factory
 * `(require) => exports`, with four additions to the session row:
 * - the row element carries `data-dsh-session-row="<session id>"`;
 * - its ⋯ menu items end with the items of `@wishp3/dsh-sessions/row-menu`;
 * - opening the closed menu calls that module's `opening(sessionId)`;
 * - selecting an item calls that module's `select(id, sessionId)`.
 * @module @wishp3/dsh-sessions/workspace-browser/patch
 */

/** Specifier the patched factory requires for the added row-menu behaviour. */
export const ROW_MENU_MODULE = '@wishp3/dsh-sessions/row-menu'

interface Edit {
  /** Named in the build error when the anchor does not occur exactly once. */
  readonly anchor: string
  readonly find: string
  readonly replace: string
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
    replace: `let _deepseek_ai_dsh_client_ui_primitives = require("@deepseek-ai/dsh-client-ui-primitives");\n\t\tlet dsh_sessions_row_menu = require(${JSON.stringify(ROW_MENU_MODULE)});`,
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

/**
 * Applies the patch.
 * @param source - the published `lib/client.js` text.
 * @returns the patched factory module.
 * @throws {WorkspacePatchError} naming the first anchor that is missing or repeated.
 */
export function patchWorkspaceBundle(source: string): string {
  let text = source.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n')
  for (const edit of EDITS) {
    const count = text.split(edit.find).length - 1
    if (count !== 1) {
      throw new WorkspacePatchError(`ui-workspace patch: anchor "${edit.anchor}" found ${count} times in the published bundle (expected once); update src/workspace-browser/patch.ts for this dsh version`)
    }
    text = text.replace(edit.find, () => edit.replace)
  }
  return text
}
