/** Calls read as what they pass: no function, method or constructor of src/ takes more than three positional parameters; more travel as an object whose fields are named. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const MAX_POSITIONAL = 3

/** Each function-like declaration of a file with more positional parameters than allowed, as `file:line name (count)`. */
function tooLong(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && !ts.isFunctionTypeNode(node) && !ts.isCallSignatureDeclaration(node) && !ts.isMethodSignature(node) && node.parameters.length > MAX_POSITIONAL) {
      const name = 'name' in node && node.name !== undefined ? node.name.getText(source) : '(anonymous)'
      found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1} ${name} (${node.parameters.length})`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('parameter lists', () => {
  it(`keep every function of src/ to at most ${MAX_POSITIONAL} positional parameters`, () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).filter(file => /\.tsx?$/.test(file) && !file.endsWith('.d.ts')).map(file => join('src', file))
    expect(files.flatMap(tooLong)).toEqual([])
  })
})
