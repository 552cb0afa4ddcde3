/**
 * The main job: a real `dsh web` 0.1.0-rc.8 with this plugin installed from
 * its packed tarball, on a throwaway HOME/DSH_HOME holding two project folders
 * (`alpha`, `beta`). Without `DEEPSEEK_API_KEY` it talks to the local stand-in
 * model; with it, to the real DeepSeek API (or `DEEPSEEK_BASE_URL`).
 *
 *   npm start [-- --port <n>]
 */
import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { parseArgs } from 'node:util'
import { dshPlugin, startWeb } from '../tests/e2e/harness/dsh.ts'
import { createHome } from '../tests/e2e/harness/home.ts'
import { ensureHost, HOST_VERSION } from '../tests/e2e/harness/host.ts'
import { startModel } from '../tests/e2e/harness/model.ts'
import { packPlugin } from '../tests/e2e/harness/pack.ts'

const { values } = parseArgs({ options: { port: { type: 'string', default: '0' } } })
const port = Number(values.port)
if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be 0 to 65535, got ${values.port}`)

const hostBin = await ensureHost()
const home = createHome()
const apiKey = process.env.DEEPSEEK_API_KEY
const model = apiKey === undefined ? await startModel() : undefined
const options = {
  home,
  hostBin,
  ...(model !== undefined
    ? { modelUrl: model.url, apiKey: 'sk-stand-in' }
    : { apiKey: apiKey!, ...(process.env.DEEPSEEK_BASE_URL === undefined ? {} : { modelUrl: process.env.DEEPSEEK_BASE_URL }) }),
}
const tarball = packPlugin()
dshPlugin(options, ['add', tarball])
rmSync(dirname(tarball), { recursive: true, force: true })
const web = await startWeb(options, { cwd: home.project('alpha'), port })

process.stdout.write([
  `dsh ${HOST_VERSION} web with @wishp3/dsh-sessions: ${web.url}`,
  `  home (throwaway): ${home.home}  projects: ${home.project('alpha')}, ${home.project('beta')}`,
  `  model: ${model === undefined ? 'DeepSeek API (DEEPSEEK_API_KEY)' : `stand-in at ${model.url}`}`,
  '  Ctrl-C stops dsh and deletes the home.',
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
