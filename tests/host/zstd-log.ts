/** A compressed session log of one person's message, as the store keeps one, for the worker's readers in tests. */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { zstdCompressSync } from 'node:zlib'

/** Writes `<folder>/<name>.jsonl.zstd` holding one user message of `text`. Returns its path. */
export function writeZstdLog(folder: string, name: string, text: string): string {
  const path = join(folder, `${name}.jsonl.zstd`)
  writeFileSync(path, zstdCompressSync(Buffer.from(`${JSON.stringify({ type: 'user/message', data: { content: [{ type: 'text', text }], source: { kind: 'user' } } })}\n`)))
  return path
}
