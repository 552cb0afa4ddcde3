/**
 * The one reach into MiniSearch's non-public surface: its serialized form
 * (`AsPlainObject`, which `MiniSearch.loadJS` reads) written in pieces from
 * the same private fields its own `toJSON` reads. `toJSON` builds the whole
 * object at once, and at 2,000 sessions that takes seconds and hundreds of
 * megabytes of heap; these pieces let the writer rest between them.
 * `tests/host/official-minisearch.spec.ts` holds the result equal to
 * `toJSON` and fails when the fields read here change.
 * @module @wishp3/dsh-sessions/host/official/minisearch
 */
import type MiniSearch from 'minisearch'

/** The MiniSearch fields its own `toJSON` reads. */
interface MiniSearchState {
  readonly _documentCount: number
  readonly _nextId: number
  readonly _documentIds: Map<number, unknown>
  readonly _fieldIds: Record<string, number>
  readonly _fieldLength: Map<number, number[]>
  readonly _avgFieldLength: number[]
  readonly _storedFields: Map<number, unknown>
  readonly _dirtCount: number
  readonly _index: Iterable<[string, Map<number, Map<number, number>>]>
}

/** Index terms written between two yields of {@link plainObjectParts}. */
const TERMS_PER_PART = 2_000

/** The `AsPlainObject` serialization version these pieces write, as MiniSearch's `toJSON` does. */
const SERIALIZATION_VERSION = 2

function isState(search: object): search is MiniSearchState {
  return typeof Reflect.get(search, '_documentCount') === 'number' && Reflect.get(search, '_index') instanceof Object
    && Reflect.get(search, '_documentIds') instanceof Map && Reflect.get(search, '_fieldLength') instanceof Map && Reflect.get(search, '_storedFields') instanceof Map
}

/**
 * A MiniSearch index as the JSON text of its `toJSON()` object, in pieces.
 * The index must not change while the pieces are taken.
 * @yields consecutive pieces of one JSON object; a piece at most every {@link TERMS_PER_PART} terms.
 * @throws TypeError when MiniSearch no longer keeps the fields read here.
 */
export function* plainObjectParts<T>(search: MiniSearch<T>): Generator<string> {
  if (!isState(search)) throw new TypeError('MiniSearch no longer keeps the fields its serialization reads')
  const state = search
  yield `{"documentCount":${state._documentCount},"nextId":${state._nextId}`
  yield `,"documentIds":${JSON.stringify(Object.fromEntries(state._documentIds))},"fieldIds":${JSON.stringify(state._fieldIds)}`
  yield `,"fieldLength":${JSON.stringify(Object.fromEntries(state._fieldLength))},"averageFieldLength":${JSON.stringify(state._avgFieldLength)}`
  yield `,"storedFields":${JSON.stringify(Object.fromEntries(state._storedFields))},"dirtCount":${state._dirtCount},"index":[`
  let part = ''
  let count = 0
  for (const [term, fields] of state._index) {
    part += `${count === 0 ? '' : ','}[${JSON.stringify(term)},{`
    let firstField = true
    for (const [fieldId, frequencies] of fields) {
      part += `${firstField ? '' : ','}"${fieldId}":{`
      let firstDocument = true
      for (const [documentId, frequency] of frequencies) {
        part += `${firstDocument ? '' : ','}"${documentId}":${frequency}`
        firstDocument = false
      }
      part += '}'
      firstField = false
    }
    part += '}]'
    count += 1
    if (count % TERMS_PER_PART === 0) {
      yield part
      part = ''
    }
  }
  yield `${part}],"serializationVersion":${SERIALIZATION_VERSION}}`
}
