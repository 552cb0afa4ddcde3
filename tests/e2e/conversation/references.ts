/**
 * Cross-session references in the real host: sessions in two workspaces,
 * then, in a new alpha session, a bare id, a typed `@Title` and a pasted
 * canonical mention each deliver exactly one snapshot of the source to the
 * model, right after the readable message; an out-of-scope id delivers none
 * (passthrough) or blocks the step (reject); the settings route persists to
 * settings.yaml through the host's settings service and refuses invalid
 * input. The routes' contracts and fence are checked in process
 * (`tests/host/routes.spec.ts`, `trust.spec.ts`) and against the real host's
 * own fence in the hardened group.
 */
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { RecordedRequest } from '../../../dev/stand-in-model.ts'
import { citation, isSnapshot, userTexts } from '../harness/requests.ts'
import { until } from '../harness/wait.ts'
import { chooseWorkspace, composer, send, startNewSession, startSessionWithTurn } from '../../../dev/web-ui.ts'
import { type Topic, useTopic } from '../harness/real-host.ts'

const ALPHA_TEXT = 'Orchard plans for spring planting'
const BETA_TEXT = 'Budget review for beta team'

function raw(url: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { method: options.method ?? 'POST', headers: options.headers ?? {} }, res => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

function mention(sessionId: string, label: string): string {
  return `@[${label}](dsh-session:${Buffer.from(JSON.stringify(sessionId)).toString('base64url')})`
}

export const references: Topic = {
  tests: group => describe('cross-session references in the real host', () => {
    let alphaId: string
    let betaId: string

    const host = useTopic(group)

    const turns = () => host.stack.model.turns()
    async function nextTurn(text: string): Promise<RecordedRequest> {
      const before = turns().length
      await send(host.browser.page, text)
      await expect.poll(() => turns().length, { timeout: 30_000 }).toBe(before + 1)
      return turns().at(-1)!
    }
    const snapshotCount = (request: RecordedRequest | undefined) => (request === undefined ? 0 : userTexts(request).filter(isSnapshot).length)

    beforeAll(async () => {
      await startSessionWithTurn(host.browser.page, 'alpha', ALPHA_TEXT)
      alphaId = turns().at(-1)!.sessionId!
      await startSessionWithTurn(host.browser.page, 'beta', BETA_TEXT)
      betaId = turns().at(-1)!.sessionId!
      const titled = (text: string) => host.stack.model.requests.some(r => r.kind === 'title' && JSON.stringify(r.body.messages).includes(text))
      await until(() => titled(ALPHA_TEXT) && titled(BETA_TEXT), 'both session titles')
      await startNewSession(host.browser.page)
      await chooseWorkspace(host.browser.page, 'alpha')
    })

    it('delivers one snapshot after the message for a bare id', async () => {
      expect(alphaId).toMatch(/^session-[0-9a-f-]{36}$/)
      const turn = await nextTurn(`bare marker ${alphaId} what did we plan?`)
      const cited = citation(turn, 'bare marker')
      expect(cited.direct).toBe(`bare marker ${alphaId} what did we plan?`)
      expect(cited.following).toContain('<referenced-sessions>')
      expect(cited.following).toContain(ALPHA_TEXT)
      expect(cited.following).not.toContain(BETA_TEXT)
      expect(cited.snapshots).toBe(1)
    })

    it('delivers one snapshot for a typed @Title', async () => {
      const previous = turns().at(-1)
      const turn = await nextTurn('title marker @Title Orchard plans for spring, summarise it')
      const cited = citation(turn, 'title marker')
      expect(cited.direct).toBe('title marker @Title Orchard plans for spring, summarise it')
      expect(cited.following).toContain(ALPHA_TEXT)
      expect(cited.snapshots).toBe(snapshotCount(previous) + 1)
    })

    it('delivers one snapshot for a pasted canonical mention, shown as @label', async () => {
      const previous = turns().at(-1)
      const turn = await nextTurn(`canonical marker ${mention(alphaId, 'Orchard')} again`)
      const cited = citation(turn, 'canonical marker')
      expect(cited.direct).toBe('canonical marker @Orchard again')
      expect(cited.following).toContain('"label":"Orchard"')
      expect(cited.snapshots).toBe(snapshotCount(previous) + 1)
    })

    it('keeps an out-of-scope id as text without a snapshot in passthrough mode', async () => {
      const previous = turns().at(-1)
      const turn = await nextTurn(`scope marker ${betaId} and ${mention(betaId, 'Budget')}`)
      const cited = citation(turn, 'scope marker')
      expect(cited.direct).toBe(`scope marker ${betaId} and @Budget`)
      expect(cited.following).toBeUndefined()
      expect(cited.snapshots).toBe(snapshotCount(previous))
      expect(userTexts(turn).join('\n')).not.toContain(BETA_TEXT)
    })

    it('persists settings to settings.yaml, refuses invalid ones byte for byte, and blocks the step in reject mode', async () => {
      const settingsFile = join(host.stack.home.dshHome, 'settings.yaml')
      const json = { 'content-type': 'application/json' }
      const accepted = await raw(host.stack.web.url, '/dsh-sessions/settings', { headers: json, body: JSON.stringify({ failureMode: 'reject' }) })
      expect(accepted.status).toBe(200)
      expect(JSON.parse(accepted.body)).toMatchObject({ failureMode: 'reject', scope: 'workspace' })
      const written = readFileSync(settingsFile)
      expect(written.toString()).toMatch(/^dsh-sessions:\n {2}failureMode: reject$/m)
      for (const body of ['{"scope":"galaxy"}', '{"candidateLimit":-1}', '{"nope":1}', '{bad json']) {
        const refused = await raw(host.stack.web.url, '/dsh-sessions/settings', { headers: json, body })
        expect(refused.status, body).toBe(400)
      }
      expect(readFileSync(settingsFile).equals(written)).toBe(true)
      const current = await raw(host.stack.web.url, '/dsh-sessions/settings', { method: 'GET' })
      expect(JSON.parse(current.body)).toMatchObject({ failureMode: 'reject' })

      const before = turns().length
      // The host refuses the step and says so in the dock: from then on no model request can follow for it.
      await send(host.browser.page, `reject marker ${mention(betaId, 'Budget')}`)
      await host.browser.page.locator('[data-dsh-sessions-reference-dock]').getByRole('alert').filter({ hasText: 'Not sent' }).waitFor({ timeout: 30_000 })
      expect(turns().length).toBe(before)
      await composer(host.browser.page).fill('')

      const restored = await raw(host.stack.web.url, '/dsh-sessions/settings', { headers: json, body: JSON.stringify({ failureMode: 'passthrough' }) })
      expect(restored.status).toBe(200)
    })
  }),
}
