/**
 * Copies text from inside a click.
 * @module @wishp3/dsh-sessions/client/copy/clipboard
 */

import { focusedElement } from '../official/page-writes.ts'

/** The two clipboard paths, injectable for tests. */
export interface ClipboardPaths {
  readonly document: Document
  readonly clipboard: Pick<Clipboard, 'writeText'> | undefined
}

function execCopy(doc: Document, text: string): boolean {
  const focused = focusedElement(doc)
  const area = doc.createElement('textarea')
  area.value = text
  area.setAttribute('readonly', '')
  area.style.position = 'fixed'
  area.style.top = '0'
  area.style.opacity = '0'
  doc.body.appendChild(area)
  try {
    area.select()
    return doc.execCommand('copy')
  } catch {
    // execCommand is missing or refused: the async path decides.
    return false
  } finally {
    area.remove()
    focused?.focus?.()
  }
}

/** Copies `text`. Call it synchronously from the click handler. `paths`: the document and async clipboard to use. */
export function copyText(text: string, paths: ClipboardPaths = { document, clipboard: navigator.clipboard }): Promise<boolean> {
  if (execCopy(paths.document, text)) return Promise.resolve(true)
  if (paths.clipboard === undefined) return Promise.resolve(false)
  try {
    return paths.clipboard.writeText(text).then(() => true, () => false)
  } catch {
    // writeText threw synchronously (no permission model): nothing accepted the text.
    return Promise.resolve(false)
  }
}
