/** The session catalog: pure data with title provenance; an event's title wins over storage and logs. */
import { describe, expect, it } from 'vitest'
import { catalogEntry, CatalogEntries } from '../../src/host/sessions/catalog-entries.ts'

const header = (id: string, createdAt: number, cwd?: string) => ({ id, createdAt, ...(cwd === undefined ? {} : { cwd }) })

describe('the session catalog', () => {
  it('labels an untitled session by its id and matches on id, cwd and label in lower case', () => {
    const given = header('session-A', 1, '/W/Alpha')
    expect(catalogEntry(given, undefined)).toEqual({
      id: 'session-A', cwd: '/W/Alpha', createdAt: 1, title: undefined, label: 'session-A', matchKeys: ['session-a', '/w/alpha', 'session-a'], header: given,
    })
    // A retitled entry keeps the header the host gave, not the entry it was made from.
    const retitled = catalogEntry(catalogEntry(given, undefined), 'Kiwi')
    expect(retitled.header).toBe(given)
    expect(retitled.label).toBe('Kiwi')
    expect(catalogEntry(header('s', 1), 'Kiwi Plans').matchKeys).toEqual(['s', 'kiwi plans'])
  })

  it('lists newest first with the id breaking ties, and sorts again only after a change', () => {
    const catalog = new CatalogEntries()
    catalog.stored(header('b', 5), undefined)
    catalog.stored(header('a', 5), undefined)
    catalog.stored(header('c', 9), undefined)
    const first = catalog.list()
    expect(first.map(session => session.id)).toEqual(['c', 'a', 'b'])
    expect(catalog.list()).toBe(first)
    catalog.remove('a')
    expect(catalog.list().map(session => session.id)).toEqual(['c', 'b'])
    expect(catalog.remove('a')).toBe(false)
  })

  it('keeps a title an event named against storage and log repairs, and forgets that once the session leaves', () => {
    const catalog = new CatalogEntries()
    catalog.stored(header('s', 1), 'From the cache')
    expect(catalog.needsTitle('s')).toBe(false)
    catalog.titled(header('s', 1), 'From an event')
    catalog.stored(header('s', 1), 'From a later listing')
    catalog.repairTitle('s', 'From the log')
    expect(catalog.get('s')?.title).toBe('From an event')
    catalog.remove('s')
    catalog.stored(header('s', 1), undefined)
    expect(catalog.needsTitle('s')).toBe(true)
    catalog.repairTitle('s', 'From the log')
    expect(catalog.get('s')?.label).toBe('From the log')
  })

  it('keeps the held title when storage or a live session tells none', () => {
    const catalog = new CatalogEntries()
    catalog.stored(header('s', 1), 'Known')
    catalog.stored(header('s', 1), undefined)
    catalog.live(header('s', 1), undefined)
    expect(catalog.get('s')?.title).toBe('Known')
    expect(catalog.isEventTitled('s')).toBe(false)
    catalog.live(header('s', 1), 'Live title')
    expect(catalog.isEventTitled('s')).toBe(true)
  })
})
