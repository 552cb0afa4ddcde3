/** What npm start seeds and how its stand-in model answers. */
import { describe, expect, it } from 'vitest'
import { scanTitleMentions } from '../../src/host/references/title-mentions.ts'
import { demoReply, referencedLabels } from '../../scripts/demo/reply.ts'
import { demoSessions } from '../../scripts/demo/sessions.ts'
import type { Home } from '../../dev/home.ts'

const home = { home: '/h', dshHome: '/h/.dsh', project: (name: string) => `/h/${name}`, remove: () => {} } as Home
const snapshot = (labels: string[]) => ({
  role: 'user',
  content: `## Referenced sessions\n\n<referenced-sessions>\n${JSON.stringify({ sessions: labels.map(label => ({ label, cwd: '/h/alpha', messages: [{ text: '"label":"not a label"' }] })) })}\n</referenced-sessions>`,
})

describe('the demo sessions of npm start', () => {
  const sessions = demoSessions(home)

  it('fill both projects with titled sessions in English and Chinese', () => {
    expect(sessions.filter(session => session.cwd === '/h/alpha').length).toBeGreaterThanOrEqual(3)
    expect(sessions.filter(session => session.cwd === '/h/beta').length).toBeGreaterThanOrEqual(2)
    expect(sessions.some(session => /\p{scx=Han}/u.test(session.title))).toBe(true)
    expect(sessions.some(session => /^[\x20-\x7e]+$/.test(session.title))).toBe(true)
    expect(new Set(sessions.map(session => session.title)).size).toBe(sessions.length)
  })

  it('let the guide\'s "@发布计划总结一下" name exactly one alpha session', () => {
    const alpha = sessions.filter(session => session.cwd === '/h/alpha').map(session => session.title)
    expect(scanTitleMentions('@发布计划总结一下', alpha).map(mention => mention.title)).toEqual(['发布计划'])
  })
})

describe('the demo replies of the stand-in model', () => {
  it('say they come from a stand-in and report the message, quotes and referenced sessions', () => {
    const reply = demoReply([
      { role: 'system', content: 'You are dsh' },
      { role: 'user', content: '> quoted one\n> quoted two\n\nWhat now about @Release plan?' },
      snapshot(['Release plan']),
      { role: 'user', content: 'Current runtime context: cwd /h/alpha' },
    ])
    expect(reply).toMatch(/^\[Stand-in model\] .*not DeepSeek/)
    expect(reply).toContain('Message received: > quoted one')
    expect(reply).toContain('Quoted lines: 2')
    expect(reply).toContain('Sessions with a snapshot: Release plan')
  })

  it('answer in Chinese to a Chinese message', () => {
    const reply = demoReply([{ role: 'user', content: '@发布计划总结一下' }, snapshot(['发布计划'])])
    expect(reply).toMatch(/^【替身模型】.*不是 DeepSeek/)
    expect(reply).toContain('附带快照的会话：发布计划')
    expect(demoReply([{ role: 'user', content: '你好' }])).toContain('附带快照的会话：无')
  })

  it('read labels only from snapshots, each once', () => {
    expect(referencedLabels([
      { role: 'user', content: '"label":"typed by hand"' },
      snapshot(['A <b>', 'B']),
      snapshot(['A <b>']),
    ])).toEqual(['A <b>', 'B'])
  })
})
