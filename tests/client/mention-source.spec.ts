/** The @ source: the files group and scoped session rows, picks, and the codec that has the draft checked once before the send. */
import type { InputTriggerSource } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import { describe, expect, it, vi } from 'vitest'
import type { SessionsApi } from '../../src/client/api.ts'
import type { SendCheckCode } from '../../src/shared/wire.ts'
import { en, type SessionsKey, zh } from '../../src/client/locales.ts'
import { DraftPreflight } from '../../src/client/mention/draft-preflight.ts'
import { createMentionSource, MENTION_SOURCE } from '../../src/client/mention/source.ts'
import { decodeChipRef } from '../../src/client/core/chip-ref.ts'
import { emphasise } from '../../src/client/core/snippet.ts'

const NOW = Date.UTC(2026, 10, 29, 12)
const alpha = { sessionId: 'session-a', label: 'Orchard plans', cwd: '/w/alpha', createdAt: NOW - 120_000, mention: '@[Orchard plans](dsh-session:a)' }
const untitled = { sessionId: 'session-u', label: 'session-u', createdAt: NOW - 5_000, mention: '@[session-u](dsh-session:u)' }

/** English lookup that fills `{name}` parameters the way the host's locale runtime does (its bundle loads only in a shell page). */
function englishT() {
  return (key: SessionsKey, params: Record<string, string> = {}) => en[key].replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
}

function setup(overrides: Partial<SessionsApi> = {}, files = vi.fn(() => Promise.resolve([
  { path: 'src', kind: 'directory' }, { path: 'README.md', kind: 'file' },
] as never))) {
  const api: SessionsApi = {
    candidates: vi.fn(() => Promise.resolve({ candidates: [alpha, untitled] })),
    preflight: vi.fn(() => Promise.resolve({ ok: true as const, text: '@Orchard plans', references: [{ sessionId: 'session-a' }], sources: [] })),
    outcomes: vi.fn(() => Promise.resolve({ outcomes: [], last: 0 })),
    search: vi.fn(),
    titles: vi.fn(),
    mention: vi.fn(),
    messageReference: vi.fn(),
    messages: vi.fn(),
    since: vi.fn(),
    find: vi.fn(),
    related: vi.fn(),
    ...overrides,
  }
  // The draft being sent holds the one chip the test serializes.
  let sending = ''
  const batch = new DraftPreflight({
    source: MENTION_SOURCE,
    draft: () => ({ draft: '@chip ', draftRev: 1, occurrences: [{ source: MENTION_SOURCE, ref: sending, offset: 0, length: 5, clipboardText: '' }] }),
    serializeOther: () => Promise.reject(new Error('no other chips')),
    preflight: (draft, signal) => api.preflight(draft, signal),
    t: englishT(),
  })
  const created = createMentionSource({
    listFiles: files, api, t: englishT(), locale: () => 'en', now: () => NOW, excerpt: snippet => emphasise(snippet, '«', '»'),
    checkDraft: (sessionId, signal) => batch.check(sessionId, signal),
  })
  const codec = created.codec!
  const source: InputTriggerSource = {
    ...created,
    codec: { ...codec, serialize: (ref: string, signal: AbortSignal) => { sending = ref; return codec.serialize(ref, signal) } },
  }
  return { source, api, files }
}

const request = (query: string, extra: object = {}) => ({ query, position: 'inline' as const, signal: new AbortController().signal, ...extra })
const session = { sessionId: 'session-t' } as never

async function rows(source: InputTriggerSource, query: string, extra: object = {}) {
  return source.candidates(session, request(query, extra))
}

describe('the @ source', () => {
  it('says so in the sessions heading while the content index is being built, and shows a row that inserts nothing when nothing matched yet', async () => {
    const building = { indexed: 1234, total: 20000 }
    const { source } = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [alpha], indexing: building })) }, vi.fn(() => Promise.resolve([] as never)))
    expect((await rows(source, 'or')).map(row => [row.name, row.section])).toEqual([
      ['Orchard plans', 'Sessions · still indexing what was said (1,234 of 20,000)'],
    ])
    const empty = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [], indexing: building })) }, vi.fn(() => Promise.resolve([] as never)))
    const notice = await rows(empty.source, 'quetzal')
    expect(notice.map(row => [row.name, row.section])).toEqual([['Still indexing what was said: no match yet', 'Sessions · still indexing what was said (1,234 of 20,000)']])
    expect(empty.source.onPick!({ candidate: notice[0]! } as never)).toBeUndefined()
    const done = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [] })) }, vi.fn(() => Promise.resolve([] as never)))
    const none = await rows(done.source, 'quetzal')
    expect(none.map(row => [row.name, row.section])).toEqual([['No sessions match “quetzal”', 'Sessions']])
    expect(done.source.onPick!({ candidate: none[0]! } as never)).toBeUndefined()
  })

  it('says indexing is paused for low disk space in the heading and the row, in both languages', async () => {
    const paused = { indexed: 1234, total: 20000, paused: 'low-disk' as const }
    const found = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [alpha], indexing: paused })) }, vi.fn(() => Promise.resolve([] as never)))
    expect((await rows(found.source, 'or')).map(row => row.section)).toEqual(['Sessions · indexing paused: low disk space (1,234 of 20,000)'])
    const empty = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [], indexing: paused })) }, vi.fn(() => Promise.resolve([] as never)))
    expect((await rows(empty.source, 'quetzal')).map(row => [row.name, row.section])).toEqual([['Indexing paused: low disk space; no match yet', 'Sessions · indexing paused: low disk space (1,234 of 20,000)']])
    expect([zh['section.sessionsPaused'], zh['candidate.paused']]).toEqual(['会话 · 索引已暂停：磁盘空间不足（{indexed}/{total}）', '索引已暂停：磁盘空间不足，尚无匹配'])
  })

  it('lists files first, then scoped sessions by title with their age and another workspace\'s name, never an id or a path', async () => {
    const elsewhere = { ...alpha, sessionId: 'session-b', label: 'Orchard plans', cwd: '/w/beta', workspace: 'beta', createdAt: NOW - 7_200_000 }
    const { source, api, files } = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [alpha, untitled, elsewhere] })) })
    const list = await rows(source, 'or')
    expect(list.map(row => [row.name, row.description, row.section])).toEqual([
      ['Folder · src/', 'src', 'Files & folders'],
      ['File · README.md', 'README.md', 'Files & folders'],
      ['Orchard plans', '2 minutes ago', 'Sessions'],
      ['session-u', '5 seconds ago', 'Sessions'],
      ['Orchard plans', '2 hours ago · beta', 'Sessions'],
    ])
    expect(list.map(row => row.description).join(' ')).not.toMatch(/session-a|\/w\//)
    expect(files).toHaveBeenCalledWith('session-t', 'or', expect.any(AbortSignal))
    expect(api.candidates).toHaveBeenCalledWith('session-t', 'or', expect.any(AbortSignal))
    expect(source).toMatchObject({ trigger: '@', name: MENTION_SOURCE, showGroupTitle: false })
  })

  it('searches sessions for a quoted query too, spaces and all, and lists nothing once cancelled', async () => {
    const { source, api } = setup()
    const list = await rows(source, 'billing migration', { quoted: true })
    expect(api.candidates).toHaveBeenCalledWith('session-t', 'billing migration', expect.any(AbortSignal))
    expect(list.map(row => row.section)).toEqual(['Files & folders', 'Files & folders', 'Sessions', 'Sessions'])
    expect(list[1]!.value).toContain('\"README.md\"')
    const controller = new AbortController()
    const pending = source.candidates(session, { query: '', position: 'inline', signal: controller.signal })
    controller.abort()
    expect(await pending).toEqual([])
  })

  it('shows where a session found by its content matched, as text with the matches between marks', async () => {
    const found = { ...alpha, snippet: { text: '…we planned the <b>billing</b> migration for Q3', marks: [[19, 26], [31, 40]] as [number, number][] } }
    const { source } = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [found] })) })
    const [row] = (await rows(source, 'bill')).filter(item => item.section === 'Sessions')
    expect(row).toMatchObject({ name: 'Orchard plans', description: '…we planned the <b>«billing»</b> «migration» for Q3 · 2 minutes ago' })
  })

  it('says a query matched nothing, in both languages, and says nothing for an empty query', async () => {
    const { source } = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [] })) }, vi.fn(() => Promise.resolve([] as never)))
    expect((await rows(source, ' zqxj ')).map(row => row.name)).toEqual(['No sessions match “zqxj”'])
    expect(await rows(source, '')).toEqual([])
    expect(zh['candidate.noMatch']).toBe('没有匹配“{query}”的会话')
  })

  it('never rejects: a failing group is left out', async () => {
    const { source } = setup({ candidates: () => Promise.reject(new Error('down')) }, vi.fn(() => Promise.reject(new Error('down'))))
    expect(await rows(source, '')).toEqual([])
  })

  it('inserts file and session chips and continues a folder query', async () => {
    const { source } = setup()
    const [folder, file, picked] = await rows(source, '')
    const pick = (candidate: typeof file) => source.onPick({ candidate: candidate!, session, position: 'inline', via: 'menu', span: { start: 0, end: 1, draftRev: 1 } } as never)
    expect(pick(folder)).toEqual({ text: '@src/', continue: true })
    const fileInsert = pick(file) as { insert: { source: string; ref: string; label: string; appearance: string; clipboardText: string } }
    expect(fileInsert.insert).toMatchObject({ source: MENTION_SOURCE, label: 'README.md', appearance: 'file', clipboardText: '@README.md' })
    const sessionInsert = pick(picked) as typeof fileInsert
    expect(sessionInsert.insert).toMatchObject({ source: MENTION_SOURCE, label: 'Orchard plans', appearance: 'session', clipboardText: alpha.mention })
    expect(decodeChipRef(sessionInsert.insert.ref)).toEqual({ kind: 'session', citingSessionId: 'session-t', citedSessionId: 'session-a', label: 'Orchard plans', mention: alpha.mention })
    expect(source.codec!.clipboardText(sessionInsert.insert.ref)).toBe(alpha.mention)
  })

  it('serializes a session chip to its mention after a successful preflight', async () => {
    const { source, api } = setup()
    const ref = JSON.stringify({ kind: 'session', citingSessionId: 'session-t', citedSessionId: 'session-a', label: 'Orchard plans', mention: alpha.mention })
    expect(await source.codec!.serialize(ref, new AbortController().signal)).toBe(alpha.mention)
    expect(api.preflight).toHaveBeenCalledWith({ sessionId: 'session-t', text: alpha.mention, chips: ['session-a'] }, expect.any(AbortSignal))
    expect(await source.codec!.serialize(JSON.stringify({ kind: 'file', mention: '@README.md' }), new AbortController().signal)).toBe('@README.md')
  })

  it.each([
    ['out-of-scope', 'Cannot reference "Orchard plans": it isn\'t one of this workspace\'s sessions. To reference sessions of every workspace, choose "All visible sessions" in Settings → Plugins → Plugin configuration → Session references.'],
    ['not-found', 'Cannot reference "Orchard plans": the session was deleted or cannot be read.'],
    ['too-many', 'A message can reference at most 3 sessions.'],
    ['too-large', 'Cannot reference "Orchard plans": the session is too large to reference.'],
    ['self-reference', 'a session cannot reference itself.'],
    ['invalid-reference', 'This session reference is invalid.'],
    ['cancelled', 'The session reference check was cancelled.'],
    ['unavailable', 'Session references cannot be checked right now.'],
    ['SOMETHING_NEW', 'Session references cannot be checked right now.'],
  ])('rejects the send for %s with a readable reason', async (code, text) => {
    // A code this browser half does not know (a newer host) reads as unavailable.
    const { source } = setup({ preflight: () => Promise.resolve({ ok: false as const, code: code as SendCheckCode, message: 'raw', sessionId: 'session-a', label: 'Orchard plans', sources: [] }) })
    const ref = JSON.stringify({ kind: 'session', citingSessionId: 'session-t', citedSessionId: 'session-a', label: 'Orchard plans', mention: alpha.mention })
    await expect(source.codec!.serialize(ref, new AbortController().signal)).rejects.toThrow(text)
  })

  it('clamps a long title on the chip only: the ref, the mention and the copied text keep it whole', async () => {
    const title = `Quarterly orchard budget review ${'and more '.repeat(20)}`.trim()
    const long = { ...alpha, label: title, mention: `@[${title}](dsh-session:a)` }
    const { source } = setup({ candidates: vi.fn(() => Promise.resolve({ candidates: [long] })) })
    const row = (await rows(source, 'quarterly')).at(-1)
    const picked = source.onPick({ candidate: row!, session, position: 'inline', via: 'menu', span: { start: 0, end: 1, draftRev: 1 } } as never) as { insert: { label: string; ref: string; clipboardText: string } }
    expect(Array.from(picked.insert.label).length).toBeLessThanOrEqual(60)
    expect(Array.from(picked.insert.label).length).toBeGreaterThan(50)
    expect(picked.insert.label.endsWith('…')).toBe(true)
    expect(title.startsWith(picked.insert.label.slice(0, -1))).toBe(true)
    expect(picked.insert.clipboardText).toBe(long.mention)
    expect(decodeChipRef(picked.insert.ref)).toMatchObject({ label: title, mention: long.mention })
  })

  it('names a chip whose title looks like a replacement pattern exactly as written', async () => {
    const label = "Cost $& benefit $$ and $` and $'"
    const { source } = setup({ preflight: () => Promise.resolve({ ok: false as const, code: 'not-found', message: 'raw', label, sources: [] }) })
    const ref = JSON.stringify({ kind: 'session', citingSessionId: 'session-t', citedSessionId: 'session-a', label, mention: alpha.mention })
    await expect(source.codec!.serialize(ref, new AbortController().signal)).rejects.toThrow(`Cannot reference "${label}": the session was deleted or cannot be read.`)
  })

  it('rejects the send when the host cannot be reached or the ref is not one of ours', async () => {
    const { source } = setup({ preflight: () => Promise.reject(new Error('offline')) })
    const ref = JSON.stringify({ kind: 'session', citingSessionId: 't', citedSessionId: 's', label: 'l', mention: 'm' })
    await expect(source.codec!.serialize(ref, new AbortController().signal)).rejects.toThrow(en['error.unavailable'])
    await expect(source.codec!.serialize('garbage', new AbortController().signal)).rejects.toThrow(en['error.invalid'])
  })
})
