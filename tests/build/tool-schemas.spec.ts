/** The Model Experience pages, in both languages, show the model tools' schemas exactly as the model gets them. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSessionTool } from '../../src/host/tools/read-session.ts'
import { searchSessionsTool } from '../../src/host/tools/search-sessions.ts'

const root = join(import.meta.dirname, '..', '..')
const deps = { framing: { before: '', after: '' } } as never
const tools = [searchSessionsTool({} as never, deps), readSessionTool({} as never, deps)].map(({ name, description, parameters }) => ({ name, description, parameters }))

describe('the tool schemas in the Model Experience pages', () => {
  it.each(['docs/model-experience.md', 'docs/model-experience.zh.md'])('%s shows each schema as registered', file => {
    const text = readFileSync(join(root, file), 'utf8')
    const shown = [...text.matchAll(/```json\n([\s\S]*?)\n```/g)].map(match => JSON.parse(match[1]!) as { name?: string }).filter(value => tools.some(tool => tool.name === value.name))
    expect(shown).toEqual(tools)
  })
})
