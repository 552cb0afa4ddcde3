/**
 * The main job: a real `dsh web` 0.1.0-rc.8 with this plugin installed from
 * its packed tarball, on a throwaway HOME/DSH_HOME holding two project folders
 * (`alpha`, `beta`) with a few titled sessions in each, English and Chinese,
 * written by the host's own session writer. Without `DEEPSEEK_API_KEY` it
 * talks to the local stand-in model, whose replies say they come from a
 * stand-in and report what the plugin put in front of the model; with it, to
 * the real DeepSeek API (or `DEEPSEEK_BASE_URL`). It prints the URL and a
 * three-line guide to the features.
 *
 *   npm start [-- --port <n>] [-- --tarball <packed plugin>]
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { dshPlugin, startWeb } from '../dev/dsh-process.ts'
import { createHome } from '../dev/home.ts'
import { ensureHost, HOST_VERSION, hostDir } from '../dev/pinned-host.ts'
import { startModel } from '../dev/stand-in-model.ts'
import { packPlugin } from '../dev/plugin-tarball.ts'
import { writeSessionStore } from '../dev/session-store.ts'
import { demoReply } from './demo/reply.ts'
import { demoSessions } from './demo/sessions.ts'

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, tarball: { type: 'string' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0 to 65535, got ${values.port}`)

const hostBin = await ensureHost()
const home = createHome()
const apiKey = process.env.DEEPSEEK_API_KEY
const model = apiKey === undefined ? await startModel({ reply: demoReply }) : undefined
const options = {
  home,
  hostBin,
  ...(model !== undefined
    ? { modelUrl: model.url, apiKey: 'sk-stand-in' }
    : { apiKey: apiKey!, ...(process.env.DEEPSEEK_BASE_URL === undefined ? {} : { modelUrl: process.env.DEEPSEEK_BASE_URL }) }),
}
let web: Awaited<ReturnType<typeof startWeb>>
let seeded: Awaited<ReturnType<typeof writeSessionStore>>
try {
  if (values.tarball === undefined) {
    const tarball = packPlugin()
    dshPlugin(options, ['add', tarball])
    rmSync(dirname(tarball), { recursive: true, force: true })
  } else {
    dshPlugin(options, ['add', values.tarball])
  }
  seeded = await writeSessionStore(hostDir(), home, demoSessions(home))
  web = await startWeb(options, { cwd: home.project('alpha'), port })
} catch (error) {
  await model?.stop()
  home.remove()
  throw error
}

process.stdout.write([
  `dsh ${HOST_VERSION} web with @wishp3/dsh-sessions: ${web.url}`,
  `  home (throwaway): ${home.home}  projects: ${home.project('alpha')}, ${home.project('beta')}`,
  `  sessions: ${seeded.map(session => session.title).join(', ')}`,
  `  model: ${model === undefined ? 'DeepSeek API (DEEPSEEK_API_KEY)' : `stand-in at ${model.url}`}`,
  '  Ctrl-C stops dsh and deletes the home.',
  '',
  `Try this at ${web.url}:`,
  '  1. Open "Release plan" (alpha) and type @ in the composer: the Sessions group lists the other alpha sessions; send "@发布计划总结一下".',
  '  2. Select text in a reply, click "Add to chat", type a question under the quote and send.',
  '  3. Open a session row\'s ⋯ menu (or the buttons by the session title): "Copy session ID", "Copy reference".',
  '',
].join('\n'))

let stopping = false
async function shutdown(): Promise<void> {
  if (stopping) return
  stopping = true
  await web.stop()
  await model?.stop()
  home.remove()
  process.exit(0)
}
process.on('SIGINT', () => void shutdown())
process.on('SIGTERM', () => void shutdown())
