// @vitest-environment jsdom
/** Copying from inside a click: execCommand first, the async clipboard when it does not take, success when either accepts. */
import { describe, expect, it, vi } from 'vitest'
import { copyText } from '../../src/client/copy/clipboard.ts'

function paths(exec: () => boolean, writeText?: (text: string) => Promise<void>) {
  document.execCommand = vi.fn(exec) as never
  return { document, clipboard: writeText === undefined ? undefined : { writeText: vi.fn(writeText) } }
}

describe('copying a session id', () => {
  it('uses execCommand first, synchronously, with the text selected', async () => {
    let selected = ''
    const p = paths(() => {
      const area = document.querySelector('textarea')!
      selected = area.value.slice(area.selectionStart, area.selectionEnd)
      return true
    }, () => Promise.resolve())
    const pending = copyText('session-1', p)
    expect(document.execCommand).toHaveBeenCalledWith('copy')
    expect(selected).toBe('session-1')
    expect(await pending).toBe(true)
    expect(p.clipboard!.writeText).not.toHaveBeenCalled()
    expect(document.querySelector('textarea')).toBeNull()
  })

  it('falls back to the async clipboard when execCommand does not take, or throws', async () => {
    const refused = paths(() => false, () => Promise.resolve())
    expect(await copyText('session-2', refused)).toBe(true)
    expect(refused.clipboard!.writeText).toHaveBeenCalledWith('session-2')
    const throwing = paths(() => { throw new Error('unsupported') }, () => Promise.resolve())
    expect(await copyText('session-3', throwing)).toBe(true)
  })

  it('fails when both paths refuse or the async one is missing', async () => {
    expect(await copyText('x', paths(() => false, () => Promise.reject(new Error('denied'))))).toBe(false)
    expect(await copyText('x', paths(() => false))).toBe(false)
  })

  it('gives focus back to what had it', async () => {
    const input = document.createElement('input')
    document.body.appendChild(input)
    input.focus()
    await copyText('x', paths(() => true))
    expect(document.activeElement).toBe(input)
    input.remove()
  })
})
