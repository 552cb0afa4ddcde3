/**
 * Mounts the patched workspace browser in place of the disabled built-in `ui-workspace` row.
 * @module @wishp3/dsh-sessions/workspace-browser/mount
 */
import type { ClientContext } from '@deepseek-ai/dsh-client-runtime/client'
import workspaceFactory from 'virtual:dsh-sessions/vendored-workspace'
import { ROW_MENU_MODULE, SIDEBAR_MODULE } from './patch.ts'
import type { RowMenu, Sidebar } from './contract.ts'

declare const require: (id: string) => unknown

/** Runs the patched factory and applies it. `modules`: the added row-menu behaviour, and the sidebar's search and titles. */
export function mountWorkspaceBrowser(ctx: ClientContext, { rowMenu, sidebar }: { readonly rowMenu: RowMenu; readonly sidebar: Sidebar }): void {
  const shell: Record<string, () => unknown> = {
    'react': () => require('react'),
    'react/jsx-runtime': () => require('react/jsx-runtime'),
    '@deepseek-ai/dsh-client-ui-primitives': () => require('@deepseek-ai/dsh-client-ui-primitives'),
    '@deepseek-ai/dsh-client-runtime/client': () => require('@deepseek-ai/dsh-client-runtime/client'),
  }
  const vendored = workspaceFactory((id) => {
    if (id === ROW_MENU_MODULE) return rowMenu
    if (id === SIDEBAR_MODULE) return sidebar
    const load = shell[id]
    if (load === undefined) throw new Error(`vendored ui-workspace requires ${id}, which the shell does not provide`)
    return load()
  })
  ctx.plugin({ name: 'dsh-sessions-workspace', inject: vendored.inject, apply: vendored.apply })
}
