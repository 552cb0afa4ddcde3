/**
 * The session store's folders watched for what other processes write (a terminal `dsh`, a second
 * `dsh web`): the store's folder, each workspace's folder beneath it, and the folders of the sessions
 * noticed most recently. A new session's folder, or a change to a watched session's log, names its
 * session; nothing is ever listed but one folder. Where a folder cannot be watched the periodic
 * listing still finds what changed.
 * @module @wishp3/dsh-sessions/host/sessions/store-watcher
 */
import { existsSync, type FSWatcher, watch } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { isSessionId } from './session-id.ts'

/** Most session folders watched at once; the one noticed longest ago is let go first. */
export const SESSION_WATCHES = 64

/** Milliseconds between looks for the folder of a store that has none yet. */
export const ROOT_RETRY_MS = 2_000

/** Most workspace folders watched. */
export const WORKSPACE_WATCHES = 1024

/** Where the JSONL store keeps a session: `<root>/<workspace folder>/<session id>/<log>`, as rc.8's persistence names it (an id of the host's forms needs no escaping there). `log`: the path the persistence service locates for a session. Returns the store's folder; `undefined` when the path is not of that shape. */
export function storeRoot(log: string, id: string): string | undefined {
  const folder = dirname(log)
  return basename(folder) === id ? dirname(dirname(folder)) : undefined
}

/** The watches of one store. */
export class StoreWatcher {
  private readonly workspaces = new Map<string, FSWatcher>()
  /** Watched session folders by id, the one noticed longest ago first. */
  private readonly sessions = new Map<string, FSWatcher>()
  private rootWatch: FSWatcher | undefined
  private retry: ReturnType<typeof setTimeout> | undefined
  private late = false
  private stopped = false
  private readonly root: string
  private readonly noticed: (id: string) => void
  private readonly failed: (error: unknown) => void

  /** `root`: the store's folder. `noticed`: called with the id of a session whose folder or log changed. `failed`: told once why a folder could not be watched. */
  constructor(root: string, noticed: (id: string) => void, failed: (error: unknown) => void) {
    this.root = root
    this.noticed = noticed
    let told = false
    this.failed = error => {
      if (!told) failed(error)
      told = true
    }
  }

  /** Watches the store's folder and each workspace folder in it (one look at the store's folder); does nothing while the store's folder is watched. A store with no folder yet (nothing written to it) is looked at again every {@link ROOT_RETRY_MS} until it has one. */
  async start(): Promise<void> {
    if (this.rootWatch !== undefined || this.stopped) return
    clearTimeout(this.retry)
    this.rootWatch = this.watch(this.root, name => void this.addWorkspace(join(this.root, name), true))
    if (this.rootWatch === undefined) {
      if (!existsSync(this.root)) {
        // Sessions written before the watch begins are then named too: a store that had no folder holds few.
        this.late = true
        this.retry = setTimeout(() => void this.start(), ROOT_RETRY_MS)
        this.retry.unref()
      }
      return
    }
    let names: string[]
    try {
      names = (await readdir(this.root, { withFileTypes: true })).filter(entry => entry.isDirectory()).map(entry => entry.name)
    } catch (error) {
      this.failed(error)
      return
    }
    for (const name of names) await this.addWorkspace(join(this.root, name), this.late)
  }

  /** Watches a session's folder, so that its log's growth is noticed; the folder noticed longest ago is let go past {@link SESSION_WATCHES}. `workspace`: the folder that holds it. */
  follow(id: string, workspace: string): void {
    const held = this.sessions.get(id)
    if (held !== undefined) {
      this.sessions.delete(id)
      this.sessions.set(id, held)
      return
    }
    const watcher = this.watch(join(workspace, id), () => this.noticed(id))
    if (watcher === undefined) return
    this.sessions.set(id, watcher)
    for (const [oldest, old] of this.sessions) {
      if (this.sessions.size <= SESSION_WATCHES) break
      old.close()
      this.sessions.delete(oldest)
    }
  }

  /** Whether the store's folder is watched. */
  get watching(): boolean {
    return this.rootWatch !== undefined
  }

  /** How many folders are watched. */
  get watched(): number {
    return (this.rootWatch === undefined ? 0 : 1) + this.workspaces.size + this.sessions.size
  }

  /** Lets every folder go. */
  stop(): void {
    this.stopped = true
    clearTimeout(this.retry)
    this.rootWatch?.close()
    for (const watcher of [...this.workspaces.values(), ...this.sessions.values()]) watcher.close()
    this.workspaces.clear()
    this.sessions.clear()
  }

  /** Watches a workspace folder; `look`: also names the sessions already in it (a folder created after the start may hold one made before its watch). */
  private async addWorkspace(folder: string, look: boolean): Promise<void> {
    if (this.stopped || this.workspaces.has(folder) || this.workspaces.size >= WORKSPACE_WATCHES) return
    const watcher = this.watch(folder, name => this.arrived(name, folder))
    if (watcher === undefined) return
    this.workspaces.set(folder, watcher)
    if (!look) return
    try {
      for (const name of await readdir(folder)) this.arrived(name, folder)
    } catch {
      // The folder went away again: its watch reports nothing more.
    }
  }

  /** An entry of a workspace folder changed: a session's folder is followed and its session named. */
  private arrived(name: string, workspace: string): void {
    if (!isSessionId(name)) return
    this.follow(name, workspace)
    this.noticed(name)
  }

  /** A watch of a folder that calls `changed` with each changed entry's name; `undefined` where the folder cannot be watched. */
  private watch(folder: string, changed: (name: string) => void): FSWatcher | undefined {
    if (this.stopped) return undefined
    try {
      const watcher = watch(folder, { persistent: false, encoding: 'utf8' }, (_event, name) => {
        if (name !== null && !this.stopped) changed(name)
      })
      // A watched folder that is removed ends its watch; a later listing or the parent's watch finds what replaced it.
      watcher.on('error', () => this.forget(folder, watcher))
      return watcher
    } catch (error) {
      // A folder not there yet (no store, or a session folder gone again) is no failure: the next start looks again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.failed(error)
      return undefined
    }
  }

  private forget(folder: string, watcher: FSWatcher): void {
    watcher.close()
    if (this.rootWatch === watcher) this.rootWatch = undefined
    if (this.workspaces.get(folder) === watcher) this.workspaces.delete(folder)
    for (const [id, held] of this.sessions) if (held === watcher) this.sessions.delete(id)
  }
}
