/**
 * The demo replies of `npm start`'s stand-in model. A reply says plainly that
 * it comes from a local stand-in, not DeepSeek, and reports what the plugin
 * put in front of the model: the message as it arrived, how many quoted
 * lines it holds, and the sessions whose snapshots follow it. It answers in
 * Chinese when the message has Chinese text.
 */
import { humanText, textOf, type WireMessage } from '../../dev/stand-in-model.ts'

const SNAPSHOT = /^## Referenced sessions/
const LABEL = /"label":("(?:[^"\\]|\\.)*")/g
const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u

/**
 * The labels of the sessions whose snapshots a request carries.
 * @param messages - the request's messages.
 * @returns the labels, in order, each once.
 */
export function referencedLabels(messages: readonly WireMessage[]): string[] {
  const labels: string[] = []
  for (const message of messages) {
    const text = message.role === 'user' ? textOf(message) : ''
    if (!SNAPSHOT.test(text)) continue
    for (const match of text.matchAll(LABEL)) {
      const label = JSON.parse(match[1]!) as string
      if (!labels.includes(label)) labels.push(label)
    }
  }
  return labels
}

/**
 * The demo reply to a turn request.
 * @param messages - the request's messages.
 * @returns the reply text.
 */
export function demoReply(messages: readonly WireMessage[]): string {
  const said = humanText(messages)
  const quoted = said.split('\n').filter(line => line.startsWith('>')).length
  const labels = referencedLabels(messages)
  if (CJK.test(said)) {
    return [
      '【替身模型】这是 `npm start` 的本地替身模型，不是 DeepSeek，只复述它收到的内容（设置 DEEPSEEK_API_KEY 可使用真实模型）。',
      `收到的消息：${said}`,
      `引用的行数：${quoted}`,
      `附带快照的会话：${labels.length === 0 ? '无' : labels.join('、')}`,
    ].join('\n\n')
  }
  return [
    '[Stand-in model] This is the local stand-in of `npm start`, not DeepSeek: it only reports what it received (set DEEPSEEK_API_KEY for real answers).',
    `Message received: ${said}`,
    `Quoted lines: ${quoted}`,
    `Sessions with a snapshot: ${labels.length === 0 ? 'none' : labels.join(', ')}`,
  ].join('\n\n')
}
