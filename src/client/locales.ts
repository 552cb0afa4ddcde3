/** `dsh-sessions` namespace dictionaries for every string the browser half shows. */
import type {} from '@deepseek-ai/dsh-client-ui-slots'

/** Dictionary namespace owned by this plugin. */
export const NS = 'dsh-sessions'

/** Simplified Chinese dictionary (the key-set source of truth). */
export const zh = {
  'plugin.name': '会话工具',
  'quote.add': '添加到对话',
  'quote.chip': '引用 {n}',
  'quote.truncated': '…（已截断）',
  'settings.title': '会话引用',
  'settings.scope.workspace': '仅当前工作区',
  'settings.scope.all': '所有可见会话',
  'row.copyId': '复制会话 ID',
  'row.copyId.done': '已复制会话 ID',
  'row.copyId.failed': '复制会话 ID 失败',
} satisfies Record<string, string>

/** The `dsh-sessions` key union. */
export type SessionsKey = keyof typeof zh

declare module '@deepseek-ai/dsh-client-ui-slots' {
  interface LocaleNamespaceMap {
    /** Copy of the `@wishp3/dsh-sessions` browser half. */
    'dsh-sessions': SessionsKey
  }
}

/** English dictionary, checked complete against the zh key set. */
export const en = {
  'plugin.name': 'Session tools',
  'quote.add': 'Add to chat',
  'quote.chip': 'Quote {n}',
  'quote.truncated': '… (truncated)',
  'settings.title': 'Session references',
  'settings.scope.workspace': 'Current workspace only',
  'settings.scope.all': 'All visible sessions',
  'row.copyId': 'Copy session ID',
  'row.copyId.done': 'Session ID copied',
  'row.copyId.failed': 'Could not copy the session ID',
} satisfies Record<SessionsKey, string>
