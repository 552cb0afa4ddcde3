/** Queries that must never break a search: query syntax of FTS5 and of this plugin, emoji, a lone surrogate, paths. */
export const HOSTILE_QUERIES: readonly string[] = ['"', '*', 'NEAR(', 'NEAR(a b)', '-', '-kiwi', ':', 'body:kiwi', '😀', '\ud800', '\udfff kiwi', '@[', '^', 'a OR b', '(', ')', '\u0000', '../../etc']
