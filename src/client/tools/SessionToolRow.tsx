/**
 * A `search_sessions` or `read_session` call as the conversation shows it: one line in the host's
 * tool-row rhythm, "Searched sessions for "…".
 * @module @wishp3/dsh-sessions/client/tools/SessionToolRow
 */
import { IconLinkOutline16, IconSearchOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { ToolCallBlock } from '@deepseek-ai/dsh-client-runtime/client'
import type { SessionToolRowProps } from '../contract.ts'
import { type ToolCallSource, type ToolRowSession, toolRowModel } from '../core/session-tool.ts'
import css from './SessionToolRow.module.css'

/** The parts of a running or settled call the row model reads. */
function sourceOf(block: ToolCallBlock): ToolCallSource {
  if (!('kind' in block)) return { argsRaw: block.argsRaw, settled: false, isError: false, interrupted: false }
  const text = block.content.map(item => (item.type === 'text' ? item.text : '')).join('\n')
  return { argsRaw: block.call?.argsRaw ?? '', settled: true, isError: block.isError, interrupted: block.error?.code === 'interrupted', text }
}

/** The row. `props`: the call (from the slot owner), the locale seat and the session opener. Returns the row, or nothing for a call of another tool. */
export function SessionToolRow(props: SessionToolRowProps) {
  const { t } = props
  const model = toolRowModel(props.toolName, sourceOf(props.block))
  if (model === undefined) return null
  const open = (session: ToolRowSession) => (
    <button type="button" className={css.open} onClick={() => { props.openSession(session.sessionId) }}>{session.title}</button>
  )
  const failed = model.state === 'error' || model.state === 'stopped'
  let summary: string
  let sessions: readonly ToolRowSession[] = []
  if (model.tool === 'search') {
    summary = model.state === 'running'
      ? t('tool.search.running', { query: model.query })
      : failed ? t('tool.search.failed', { query: model.query })
        : t('tool.search.done', { query: model.query, count: String(model.sessions?.length ?? 0) })
    sessions = model.sessions ?? []
  } else {
    summary = model.state === 'running'
      ? t('tool.read.running')
      : failed ? t('tool.read.failed')
        : model.found !== true || model.session === undefined ? t('tool.read.none')
          : model.query !== undefined ? t(model.matches === 1 ? 'tool.find.doneOne' : 'tool.find.done', { query: model.query, count: String(model.matches ?? 0) })
            : model.range === undefined ? t('tool.read.empty')
              : t('tool.read.done', { from: String(model.range[0]), to: String(model.range[1]) })
    if (model.found === true && model.session !== undefined) sessions = [model.session]
  }
  return (
    <div className={css.row} data-dsh-sessions-tool={props.toolName} data-state={model.state}>
      <span className={css.icon} aria-hidden="true">{model.tool === 'search' ? <IconSearchOutline16 /> : <IconLinkOutline16 />}</span>
      {model.tool === 'read' && sessions.length === 1 ? (
        <span className={failed ? `${css.summary} ${css.failed}` : css.summary}>{t(model.query === undefined ? 'tool.read.prefix' : 'tool.find.prefix')} {open(sessions[0]!)}{summary}</span>
      ) : (
        <>
          <span className={failed ? `${css.summary} ${css.failed}` : css.summary}>{summary}</span>
          {sessions.length > 0 ? <ul className={css.sessions}>{sessions.map(session => <li key={session.sessionId}>{open(session)}</li>)}</ul> : null}
        </>
      )}
    </div>
  )
}
