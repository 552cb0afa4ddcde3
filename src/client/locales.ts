/** `dsh-sessions` namespace dictionaries for every string the browser half shows. */
import type {} from '@deepseek-ai/dsh-client-ui-slots'

/** Dictionary namespace owned by this plugin. */
export const NS = 'dsh-sessions'

/** Simplified Chinese dictionary (the key-set source of truth). */
export const zh = {
  'plugin.name': '会话工具',
  'section.files': '文件与文件夹',
  'section.sessions': '会话',
  'candidate.file': '文件',
  'candidate.folder': '文件夹',
  'candidate.session': '会话',
  'candidate.noCwd': '（无工作目录）',
  'error.outOfScope': '无法引用「{label}」：它不在当前工作区。可在 设置 → 插件 → 会话引用 中改为“所有可见会话”。',
  'error.self': '无法引用「{label}」：会话不能引用自己。',
  'error.tooMany': '一条消息最多引用 3 个会话，请移除多余的会话引用。',
  'error.notFound': '无法引用「{label}」：该会话已被删除或无法读取。',
  'error.tooLarge': '无法引用「{label}」：该会话内容超出引用大小上限。',
  'error.invalid': '会话引用无效，请重新从 @ 菜单选择。',
  'error.cancelled': '会话引用检查已取消，请重试。',
  'error.unavailable': '暂时无法检查会话引用，请稍后重试。',
  'settings.description': '@ 菜单与消息中可引用哪些会话',
  'settings.scope.label': '引用范围',
  'settings.others': '其他配置（此处只读）：取插件行配置（未设置时为默认值），settings.yaml 的 dsh-sessions 段设置了的键以该文件为准。',
  'settings.key.allowBareSessionIds': '解析裸会话 ID',
  'settings.key.allowPlainTitleMentions': '解析手写的 @标题',
  'settings.key.candidateLimit': '每次 @ 查询的候选上限',
  'settings.key.failureMode': '发送后引用失败时',
  'settings.value.on': '开启',
  'settings.value.off': '关闭',
  'settings.value.passthrough': '保留文本并继续',
  'settings.value.reject': '拒绝本次发送',
  'settings.source.row': '插件行配置',
  'settings.source.file': 'settings.yaml',
  'settings.save': '保存',
  'settings.saving': '保存中…',
  'settings.saved': '已保存',
  'settings.saveFailed': '保存失败',
  'settings.expand': '展开',
  'settings.collapse': '收起',
  'quote.add': '添加到对话',
  'quote.chip': '引用 {n}',
  'quote.truncated': '…（已截断）',
  'quote.bar': '引用',
  'quote.expand': '展开',
  'quote.collapse': '收起',
  'quote.remove': '移除',
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
  'section.files': 'Files & folders',
  'section.sessions': 'Sessions',
  'candidate.file': 'File',
  'candidate.folder': 'Folder',
  'candidate.session': 'Session',
  'candidate.noCwd': '(no working directory)',
  'error.outOfScope': 'Cannot reference "{label}": it is outside the current workspace. Settings → Plugins → Session references can allow all visible sessions.',
  'error.self': 'Cannot reference "{label}": a session cannot reference itself.',
  'error.tooMany': 'A message can reference at most 3 sessions. Remove the extra session references.',
  'error.notFound': 'Cannot reference "{label}": the session was deleted or cannot be read.',
  'error.tooLarge': 'Cannot reference "{label}": the session is too large to reference.',
  'error.invalid': 'This session reference is invalid. Pick the session from the @ menu again.',
  'error.cancelled': 'The session reference check was cancelled. Try again.',
  'error.unavailable': 'Session references cannot be checked right now. Try again shortly.',
  'settings.description': 'Which sessions the @ menu and messages can reference',
  'settings.scope.label': 'Reference scope',
  'settings.others': 'Other settings (read-only here): from the plugin row config (the default when unset), unless the dsh-sessions section of settings.yaml sets the key.',
  'settings.key.allowBareSessionIds': 'Resolve bare session ids',
  'settings.key.allowPlainTitleMentions': 'Resolve typed @Title mentions',
  'settings.key.candidateLimit': 'Candidates per @ query',
  'settings.key.failureMode': 'When a reference fails after sending',
  'settings.value.on': 'On',
  'settings.value.off': 'Off',
  'settings.value.passthrough': 'Keep the text and continue',
  'settings.value.reject': 'Reject the send',
  'settings.source.row': 'row config',
  'settings.source.file': 'settings.yaml',
  'settings.save': 'Save',
  'settings.saving': 'Saving…',
  'settings.saved': 'Saved',
  'settings.saveFailed': 'Save failed',
  'settings.expand': 'Expand',
  'settings.collapse': 'Collapse',
  'quote.add': 'Add to chat',
  'quote.chip': 'Quote {n}',
  'quote.truncated': '… (truncated)',
  'quote.bar': 'Quotes',
  'quote.expand': 'Expand',
  'quote.collapse': 'Collapse',
  'quote.remove': 'Remove',
  'settings.title': 'Session references',
  'settings.scope.workspace': 'Current workspace only',
  'settings.scope.all': 'All visible sessions',
  'row.copyId': 'Copy session ID',
  'row.copyId.done': 'Session ID copied',
  'row.copyId.failed': 'Could not copy the session ID',
} satisfies Record<SessionsKey, string>
