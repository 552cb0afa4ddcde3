/**
 * The `dsh-sessions-quote` `@` source (Q4, Q5): it only routes quote chips to
 * their codec. Its candidates are always empty and its group has no title, so
 * it never shows in the `@` menu.
 * @module @wishp3/dsh-sessions/client/quote/source
 */
import type { InputTriggerSource } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import { decodeQuoteRef, QUOTE_SOURCE, toMarkdownQuote } from '../../core/quote.ts'

/**
 * The model and clipboard form of a quote chip: its Markdown quote on lines
 * of its own, so it stays a block between surrounding text.
 * @param ref - the chip's ref.
 * @returns the text sent and copied.
 */
export function quoteChipText(ref: string): string {
  const text = decodeQuoteRef(ref)
  return text === undefined ? '' : `\n${toMarkdownQuote(text)}\n`
}

/**
 * Builds the source.
 * @returns the source to register.
 */
export function createQuoteSource(): InputTriggerSource {
  return {
    trigger: '@',
    name: QUOTE_SOURCE,
    showGroupTitle: false,
    candidates: () => Promise.resolve([]),
    onPick: () => undefined,
    codec: {
      clipboardText: quoteChipText,
      serialize: ref => Promise.resolve(quoteChipText(ref)),
    },
  }
}
