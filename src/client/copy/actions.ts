/**
 * The copy actions, shared by the session row menu, the session header and the messages.
 * @module @wishp3/dsh-sessions/client/copy/actions
 */
import type { MessageHandle } from '../../shared/wire.ts'
import type { SessionsKey } from '../locales.ts'
import { copyText } from './clipboard.ts'
import type { ToastSide } from '../core/placement.ts'
import type { MessageReferenceLookup } from './message-reference-lookup.ts'
import type { ReferenceLookup } from './session-mention-lookup.ts'
import type { ShowToast } from './toast.tsx'

/** The actions. */
/** Where a copy's toast shows: beside its anchor, on the given side. */
export interface ToastAt {
  readonly anchor: HTMLElement | null
  readonly side: ToastSide
}

export interface CopyActions {
  /** Copies the session's native id. */
  copyId(sessionId: string, anchor: HTMLElement | null, side: ToastSide): void
  /** Copies the session's canonical `@[Title](dsh-session:…)` mention. */
  copyReference(sessionId: string, anchor: HTMLElement | null, side: ToastSide): void
  /** Starts looking up the session's mention ahead of a click. */
  prefetch(sessionId: string): void
  /** Copies the reference to one message of a session, `@[Title · #n](dsh-messages:…)`. */
  copyMessageReference(sessionId: string, message: MessageHandle, at: ToastAt): void
  /** Starts looking up a message's reference ahead of a click. */
  prefetchMessage(sessionId: string, message: MessageHandle): void
}

/** What the actions use. */
export interface CopyActionsDeps {
  readonly lookup: ReferenceLookup
  readonly messages: MessageReferenceLookup
  readonly show: ShowToast
  /** Text of a key in the active locale. */
  t(key: SessionsKey): string
  /** Copies text from inside a click (see `clipboard.ts`). */
  readonly copy?: (text: string) => Promise<boolean>
}

/** Builds the actions. `deps`: mention lookup, toast outlet, locale and clipboard. */
export function createCopyActions(deps: CopyActionsDeps): CopyActions {
  const copy = deps.copy ?? (text => copyText(text))
  const report = (copied: Promise<boolean>, says: { readonly done: SessionsKey; readonly failed: SessionsKey }, at: ToastAt) => {
    void copied.then(ok => { deps.show({ text: deps.t(ok ? says.done : says.failed), ok, ...at }) })
  }
  return {
    copyId(sessionId, anchor, side) {
      report(copy(sessionId), { done: 'copy.id.done', failed: 'copy.id.failed' }, { anchor, side })
    },
    copyReference(sessionId, anchor, side) {
      const ready = deps.lookup.ready(sessionId)
      const copied = ready !== undefined
        ? copy(ready)
        : deps.lookup.load(sessionId).then(mention => (mention === undefined ? false : copy(mention)))
      report(copied, { done: 'copy.reference.done', failed: 'copy.reference.failed' }, { anchor, side })
    },
    prefetch: sessionId => { deps.lookup.prefetch(sessionId) },
    copyMessageReference(sessionId, message, { anchor, side }) {
      const ready = deps.messages.ready(sessionId, message)
      const copied = ready !== undefined
        ? copy(ready)
        : deps.messages.load(sessionId, message).then(mention => (mention === undefined ? false : copy(mention)))
      report(copied, { done: 'copy.message.done', failed: 'copy.message.failed' }, { anchor, side })
    },
    prefetchMessage: (sessionId, message) => { deps.messages.prefetch(sessionId, message) },
  }
}
