/**
 * The titles a text may mention, in a prefix tree, and the form titles are compared in.
 * @module @wishp3/dsh-sessions/host/references/title-catalog
 */

/** The form two titles, or a title and typed text, are compared in: NFC, lower case. Two titles with the same key are the same title. */
export function titleKey(title: string): string {
  return title.normalize('NFC').toLowerCase()
}

/** One catalog title: its comparison key, the first title given with that key, and its NFC form. */
export interface CatalogTitle {
  readonly key: string
  readonly title: string
  readonly nfc: string
}

interface TrieNode {
  readonly next: Map<string, TrieNode>
  /** Titles whose folded form ends here. */
  readonly titles: CatalogTitle[]
}

/** Case folding one code point at a time, with both sigmas as one, so it needs no context. */
function fold(point: string): string {
  return point.toLowerCase().replaceAll('ς', 'σ')
}

/** The titles in a prefix tree of their folded code points, so finding the titles written at one offset costs at most the length of the longest one, however many titles there are. Folding per code point is coarser than the comparison key, so the tree only proposes; the caller decides with the key. */
export class TitleCatalog {
  private readonly root: TrieNode = { next: new Map(), titles: [] }

  constructor(titles: readonly string[]) {
    const seen = new Set<string>()
    for (const title of titles) {
      const key = titleKey(title)
      if (key === '' || seen.has(key)) continue
      seen.add(key)
      const nfc = title.normalize('NFC')
      let node = this.root
      for (const point of nfc) {
        for (const unit of fold(point)) {
          let child = node.next.get(unit)
          if (child === undefined) node.next.set(unit, child = { next: new Map(), titles: [] })
          node = child
        }
      }
      node.titles.push({ key, title, nfc })
    }
  }

  /** The titles whose folded form is written at `offset`, ending on a code point boundary, longest first. */
  prefixesAt(text: string, offset: number): CatalogTitle[] {
    const found: CatalogTitle[] = []
    let node: TrieNode | undefined = this.root
    for (let index = offset; index < text.length && node !== undefined;) {
      const point = String.fromCodePoint(text.codePointAt(index)!)
      index += point.length
      for (const unit of fold(point)) {
        node = node.next.get(unit)
        if (node === undefined) break
      }
      if (node !== undefined) found.push(...node.titles)
    }
    return found.sort((a, b) => b.nfc.length - a.nfc.length)
  }
}
