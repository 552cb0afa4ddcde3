/** The patched published ui-workspace bundle, produced at build time by `patchWorkspaceBundle`. */
declare module 'virtual:dsh-sessions/vendored-workspace' {
  /** The bundle's factory: the shell-module `require` in, the plugin exports out. */
  export default function workspaceFactory(require: (id: string) => unknown): { apply(ctx: unknown): void; inject: string[] }
}
