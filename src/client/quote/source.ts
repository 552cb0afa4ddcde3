/**
 * The `dsh-sessions-quote` `@` source: it only routes quote chips to their codec. Its candidates are
 * always empty and its group has no title, so it never shows in the `@` menu.
 * @module @wishp3/dsh-sessions/client/quote/source
 */
import type { InputTriggerSource } from '@deepseek-ai/dsh-client-ui-input-trigger/client'
import { decodeQuoteRef, QUOTE_SOURCE, quoteBlock } from '../core/quote.ts'

/** The model and clipboard form of a quote chip: its Markdown quote block, every line ending in a line break. Sending, copying and the saved draft all use this one form, so a reloaded draft sends what the chips sent. Returns the text sent and copied; empty for a ref that is not a quote's. */
export function quoteChipText(ref: string): string {
  const quote = decodeQuoteRef(ref)
  return quote === undefined ? '' : quoteBlock(quote.text)
}

/** Builds the source. */
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
