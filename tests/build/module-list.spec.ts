/** The per-file list of docs/modules.md and its Chinese twin is the one the module headers make today. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MODULE_PAGES, moduleList, summaryOf, withList } from '../../scripts/docs/module-list.ts'

const root = join(import.meta.dirname, '..', '..')

describe('the source file list', () => {
  it.each(MODULE_PAGES)('%s lists every source file with its header as it reads now (node scripts/docs/module-list.ts writes it)', page => {
    const text = readFileSync(join(root, page), 'utf8')
    expect(text).toBe(withList(text, moduleList()))
  })

  it('takes a header\'s first sentence up to its first colon', () => {
    expect(summaryOf('/**\n * The find bar: a box and its count.\n * More.\n * @module x\n */')).toBe('The find bar')
    expect(summaryOf('/** Copies text from inside a click. */\nexport {}')).toBe('Copies text from inside a click')
    expect(summaryOf('export const x = 1')).toBeUndefined()
  })
})
