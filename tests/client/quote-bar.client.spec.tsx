// @vitest-environment jsdom
/** The quote bar derived from the draft's chips, and the "Add to chat" button over a quotable selection. */
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { en } from '../../src/client/locales.ts'
import { QuoteBar } from '../../src/client/quote/QuoteBar.tsx'
import { SelectionButton } from '../../src/client/quote/SelectionButton.tsx'
import { quotableSelection } from '../../src/client/quote/selection.ts'
import { encodeQuoteRef, QUOTE_SOURCE } from '../../src/client/core/quote.ts'

afterEach(cleanup)

// jsdom lays nothing out; the button only needs a box to place itself.
Range.prototype.getBoundingClientRect = () => ({ top: 100, left: 50, width: 40, height: 16, bottom: 116, right: 90, x: 50, y: 100, toJSON: () => ({}) })

const t = (key: keyof typeof en) => en[key]
const occurrence = (id: number, text: string) => ({ occurrenceId: id, source: QUOTE_SOURCE, ref: encodeQuoteRef({ text, n: id }), offset: 0, length: 8, label: `Quote ${id}` })

describe('the quote bar', () => {
  it('lists only quote chips with label and first line, expands, collapses and removes', () => {
    const remove = vi.fn()
    const input = { occurrences: [occurrence(1, 'first line\nsecond line'), { ...occurrence(2, 'x'), source: 'dsh-sessions' }, occurrence(3, 'other')] }
    render(<QuoteBar t={t} input={input} remove={remove} />)
    const items = screen.getAllByRole('listitem')
    expect(items.map(item => item.textContent)).toEqual(['Quote 1first lineExpandRemove', 'Quote 3otherExpandRemove'])
    fireEvent.click(screen.getAllByRole('button', { name: 'Expand' })[0]!)
    expect(screen.getByText(/second line/).textContent).toBe('first line\nsecond line')
    fireEvent.click(screen.getByRole('button', { name: 'Collapse' }))
    expect(screen.queryByText(/second line/)).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Remove: Quote 3' }))
    expect(remove).toHaveBeenCalledWith(3)
  })

  it('follows the draft: renders nothing without quotes', () => {
    const { container, rerender } = render(<QuoteBar t={t} input={{ occurrences: [occurrence(1, 'a')] }} remove={vi.fn()} />)
    expect(container.querySelector('ul')).not.toBeNull()
    rerender(<QuoteBar t={t} input={{ occurrences: [] }} remove={vi.fn()} />)
    expect(container.innerHTML).toBe('')
  })
})

describe('the selection button', () => {
  function page() {
    document.body.innerHTML = '<div data-conversation-scroll><p id="reply">A model reply to quote</p><div data-composer-seat><p id="draft">composer text</p></div></div><p id="outside">outside</p>'
  }
  function select(id: string, from: number, to: number) {
    const node = document.getElementById(id)!.firstChild!
    const range = document.createRange()
    range.setStart(node, from)
    range.setEnd(node, to)
    document.getSelection()!.removeAllRanges()
    document.getSelection()!.addRange(range)
  }

  it('accepts a selection in the conversation only', () => {
    page()
    select('reply', 2, 7)
    expect(quotableSelection(document.getSelection())?.text).toBe('model')
    select('draft', 0, 8)
    expect(quotableSelection(document.getSelection())).toBeUndefined()
    select('outside', 0, 7)
    expect(quotableSelection(document.getSelection())).toBeUndefined()
    select('reply', 1, 2)
    expect(quotableSelection(document.getSelection())).toBeUndefined()
    document.getSelection()!.removeAllRanges()
    expect(quotableSelection(document.getSelection())).toBeUndefined()
  })

  it('shows while a quotable selection exists and the draft accepts it, and quotes on click', () => {
    page()
    const quote = vi.fn()
    let plain = true
    render(<SelectionButton t={t} canQuote={() => plain} quote={quote} />)
    expect(screen.queryByRole('button')).toBeNull()
    select('reply', 2, 7)
    fireEvent(document, new Event('selectionchange'))
    fireEvent.click(screen.getByRole('button', { name: 'Add to chat' }))
    expect(quote).toHaveBeenCalledWith('model')
    plain = false
    select('reply', 0, 7)
    fireEvent(document, new Event('selectionchange'))
    expect(screen.queryByRole('button')).toBeNull()
  })
})
