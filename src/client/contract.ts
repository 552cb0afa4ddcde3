/**
 * The browser half's slot contracts. For each entry this plugin registers: the face its `inject`
 * returns (`…Injected`) and the props its component reads (`…Props`).
 * @module @wishp3/dsh-sessions/client/contract
 */
import type { ToolCallOwnerProps } from '@deepseek-ai/dsh-client-ui-tool/client'
import type {} from '@deepseek-ai/dsh-client-ui-conversation/client'
import type {} from '@deepseek-ai/dsh-client-ui-layout/client'
import type { SettingsPluginItemOwnerProps } from '@deepseek-ai/dsh-client-ui-settings-plugins/client'
import type { HostObservable, InjectFace, OwnerOf } from '@deepseek-ai/dsh-client-ui-slots'
import type { Config, ReferenceMode } from '../config.ts'
import type { FindResponse, FoundMessage, Outcome, PreflightResponse, RelatedResponse, RelatedSession, Snippet, SourceMessagesResponse } from '../shared/wire.ts'
import type { SessionsKey } from './locales.ts'

/** rc.8's ui-conversation does not export its input-zone types, so they are read through the slot map. */
export type InputZone = OwnerOf<'conversation.input.dock'>

/** The input machine's published state: the draft, its revision, its phase and its chips. */
export type InputState = InputZone['input']

/** One chip (reference occurrence) of a draft. */
export type DraftChip = InputState['occurrences'][number]

/** The `t` seat the slot renderer gives an entry registered with `locale: 'dsh-sessions'`, as the component reads it. */
export interface LocaleSeat {
  /** Text of a key in the active locale, with `{name}` parameters filled in. */
  t(key: SessionsKey, params?: Record<string, string>): string
}

/** A quote chip, as the quote bar and the quote edits read it. */
export type QuoteChip = Pick<DraftChip, 'occurrenceId' | 'source' | 'ref' | 'offset' | 'length' | 'label'>

/** `shell.overlay` entry "Add to chat": the face its `inject` returns. */
export interface SelectionButtonInjected {
  /** Whether the current session's draft accepts a quote now. */
  canQuote(): boolean
  /** Adds the selected text to the current draft. */
  quote(text: string): void
}

/** Props of the "Add to chat" button. */
export type SelectionButtonProps = SelectionButtonInjected & LocaleSeat

/** `conversation.input.dock` entry, the quote bar: the face its `inject` returns for a session. */
export interface QuoteBarInjected {
  /** Removes one quote chip. */
  remove(occurrenceId: number): void
}

/** Props of the quote bar: the draft's chips from the input-zone owner share, and its face. */
export type QuoteBarProps = QuoteBarInjected & LocaleSeat & {
  readonly input: { readonly occurrences: readonly Pick<QuoteChip, 'occurrenceId' | 'source' | 'ref' | 'label'>[] }
}

/** A session chip of the draft, as the reference dock shows it. */
export interface DockChip {
  readonly sessionId: string
  readonly label: string
  readonly mention: string
  /** The chip's occurrence in the draft. */
  readonly occurrenceId: number
}

/** `conversation.input.dock` entry, the reference dock: the face its `inject` returns for a session. */
export interface ReferenceDockInjected {
  /** The source name of this plugin's session chips. */
  readonly source: string
  /** The UI locale id, for numbers. */
  locale(): string
  /** Checks the chips together: what each adds, or why it cannot be attached. */
  measure(chips: readonly DockChip[], signal: AbortSignal): Promise<PreflightResponse>
  /** Follows the sends the plugin refused in this session; returns a function that stops following. */
  onRefused(listener: () => void): () => void
  /** Reports this session's outcomes after each send until the signal ends. */
  watch(onOutcome: (outcome: Outcome) => void, signal: AbortSignal): void
  /** Puts a rejected message back into the composer when it is empty. */
  restore(text: string): void
  /** Opens a chip's source; the draft stays in this session's composer. */
  open(sessionId: string): void
  /** The latest messages of a chip's source, for narrowing it. */
  messages(sessionId: string, signal: AbortSignal): Promise<SourceMessagesResponse>
  /** The whole-session mention of a source, for widening a narrowed chip back. */
  wholeMention(sessionId: string): Promise<string | undefined>
  /** Replaces a chip of the draft with one citing the same source differently; true when replaced. */
  replace(occurrenceId: number, chip: { readonly sessionId: string; readonly label: string; readonly mention: string }): boolean
  /** Whether the agent may read sessions (the pointer choice needs it), and what a new chip gives the model. */
  readingSettings(): ReadingSettings
  /** Follows changes of {@link readingSettings}; returns a function that stops following. */
  onReadingSettings(listener: () => void): () => void
}

/** What the reference dock reads of the settings: whether the agent may read sessions, and what a new chip gives the model. */
export interface ReadingSettings {
  readonly agentTools: boolean
  readonly referenceMode: ReferenceMode
  /** Whether the composer offers related sessions. */
  readonly suggestRelated: boolean
}

/** Props of the reference dock: the draft's chips from the input-zone owner share, and its face. */
export type ReferenceDockProps = ReferenceDockInjected & LocaleSeat & {
  readonly input: { readonly occurrences: readonly Pick<DraftChip, 'source' | 'ref' | 'occurrenceId'>[] }
}

/** What the settings card reads of the `dsh-sessions` settings section. */
export interface ScopeCardState {
  /** `false` while the host does not serve the namespace: the card renders nothing. */
  readonly available: boolean
  readonly writable: boolean
  /** Effective configuration, when loaded. */
  readonly value: Config | undefined
  /** Keys the `dsh-sessions` section of `settings.yaml` sets. */
  readonly fromFile: ReadonlySet<string>
  /** The layer under `settings.yaml`: the profile's row configuration, resolved with the defaults. */
  readonly base: Partial<Config> | undefined
}

/** `settings.plugin.item` entry keyed `dsh-sessions`, the settings card: the face its `inject` returns. */
export interface ScopeCardInjected {
  /** The card's state; the slot renderer binds it as the `useScopeCard` selector hook. */
  readonly hooks: { readonly scopeCard: HostObservable<ScopeCardState> }
  /** Persists the changed keys, in order; rejects when a write fails. */
  save(patch: Partial<Config>): Promise<void>
}

/** Props of the settings card: the section supplies nothing ({@link SettingsPluginItemOwnerProps}); the face, with its hook bound. */
export type ScopeCardProps = SettingsPluginItemOwnerProps & InjectFace<ScopeCardInjected> & LocaleSeat

/** `conversation.session.header.actions` entry, the copy buttons: the face its `inject` returns. */
export interface HeaderCopyActionsInjected {
  /** Copies the session's id; the toast shows below `anchor`. */
  copyId(sessionId: string, anchor: HTMLElement): void
  /** Copies the session's canonical mention; the toast shows below `anchor`. */
  copyReference(sessionId: string, anchor: HTMLElement): void
  /** Starts looking up a session's mention ahead of a click. */
  prefetch(sessionId: string): void
}

/** Props of the header copy buttons: the session the header belongs to (framework session kit), and the face. */
export type HeaderCopyActionsProps = HeaderCopyActionsInjected & LocaleSeat & {
  readonly sessionId: string
}

/** The related-sessions row's dock entry: what its `inject` returns, bound to the draft's session. */
export interface RelatedRowInjected {
  /** The source name of this plugin's session chips. */
  readonly source: string
  /** The UI locale id, for ages. */
  locale(): string
  /** The sessions the draft's text is about, none of `except`. */
  ask(text: string, except: readonly string[], signal: AbortSignal): Promise<RelatedResponse>
  /** Attaches a session as a chip at the draft's end. Returns whether it went in. */
  attach(session: RelatedSession): boolean
  /** The text a row shows for an excerpt, its matches highlighted or marked. */
  excerpt(snippet: Snippet): string
  readingSettings(): ReadingSettings
  onReadingSettings(listener: () => void): () => void
}

/** Props of the related-sessions row: the draft and its chips from the input-zone owner share, and its face. */
export type RelatedRowProps = RelatedRowInjected & LocaleSeat & {
  readonly input: { readonly draft: string; readonly occurrences: readonly Pick<DraftChip, 'source' | 'ref'>[] }
}

/** The find button's header entry: what its `inject` returns. */
export interface FindButtonInjected {
  /** Opens the find bar on a session under `anchor`, or closes it. */
  toggle(sessionId: string, anchor: HTMLElement): void
}

/** Props of the find button: the session the header belongs to, and the face. */
export type FindButtonProps = FindButtonInjected & LocaleSeat & {
  readonly sessionId: string
}

/** Props of the find bar, drawn by the feature's own outlet. */
export interface FindBarProps extends LocaleSeat {
  readonly sessionId: string
  /** Where the bar stands, in the viewport. */
  readonly place: { readonly top: number; readonly left: number }
  /** Changes each time the bar is asked to take the focus again. */
  readonly focusCount: number
  /** A page of a session's matches of a query, in order after message number `after`. */
  find(asked: { readonly sessionId: string; readonly query: string; readonly after: number }, signal: AbortSignal): Promise<FindResponse>
  /** Opens the session at a match, and highlights the match's words in its row. */
  show(sessionId: string, match: FoundMessage): void
  close(): void
}

/** `tool.call.toolview` entries of the session tools: what their `inject` returns. */
export interface SessionToolRowInjected {
  /** Opens a session in the conversation view. */
  openSession(sessionId: string): void
}

/** Props a session tool row renders from: the slot owner's call, the locale seat and the session opener. */
export type SessionToolRowProps = Pick<ToolCallOwnerProps, 'toolName' | 'block'> & LocaleSeat & SessionToolRowInjected

/** `conversation.chat.assistant-actions` entry, "Copy message reference": the face its `inject` returns. */
export interface MessageReferenceActionInjected {
  /** Copies the reference to one message of the session; the toast shows below `anchor`. */
  copy(messageId: string, anchor: HTMLElement): void
  /** Starts looking up a message's reference ahead of a click. */
  prefetch(messageId: string): void
}

/** Props of the message action: the slot owner's message, the face and the locale seat. */
export type MessageReferenceActionProps = { readonly messageId: OwnerOf<'conversation.chat.assistant-actions'>['messageId'] | string } & MessageReferenceActionInjected & LocaleSeat
