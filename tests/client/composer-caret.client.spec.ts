// @vitest-environment jsdom
/** The caret after a quote goes in: put after the quote in the next frame, unless the person typed before it. */
import { afterEach, describe, expect, it } from 'vitest'
import { focusComposer } from '../../src/client/quote/register.ts'

const frame = () => new Promise(resolve => { requestAnimationFrame(resolve) })

function composer(value: string): HTMLTextAreaElement {
  document.body.innerHTML = '<div data-composer-card><textarea></textarea></div>'
  const textarea = document.querySelector('textarea')!
  textarea.value = value
  return textarea
}

afterEach(() => {
  document.body.innerHTML = ''
})

describe('the caret after a quote', () => {
  it('goes to the offset asked, in the next frame', async () => {
    const textarea = composer('Look at this:\n@Quote 1\n')
    textarea.setSelectionRange(0, 0)
    focusComposer(textarea.value.length)
    await frame()
    expect([textarea.selectionStart, textarea.selectionEnd]).toEqual([textarea.value.length, textarea.value.length])
  })

  it('stays where the person\'s keys left it when they typed before that frame', async () => {
    const textarea = composer('Look at this:\n@Quote 1\n')
    const quoted = textarea.value.length
    focusComposer(quoted)
    // Two keys typed at the end before the frame runs.
    textarea.value += 'Wh'
    textarea.setSelectionRange(textarea.value.length, textarea.value.length)
    textarea.dispatchEvent(new Event('input', { bubbles: true }))
    await frame()
    expect(textarea.selectionStart).toBe(quoted + 2)
  })
})
