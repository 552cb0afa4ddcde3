/** The damage rebuild: one rebuild at a time for any number of damaged answers, the usual pass resumed after it, nothing once stopped. */
import { describe, expect, it } from 'vitest'
import { DamageRebuild } from '../../src/host/search/damage-rebuild.ts'
import { IndexReadiness } from '../../src/host/search/index-readiness.ts'
import { DAMAGED_MESSAGE } from '../../src/host/search/worker-protocol.ts'

/** A rebuild whose pass ends when the test says, recording what it was asked to do. */
function rebuildOf(stopped = false) {
  const done: string[] = []
  let endPass = () => {}
  const rebuild = new DamageRebuild({
    stopped: () => stopped,
    forget: why => { done.push(`forget: ${why}`) },
    passed: () => new Promise<void>(resolve => { endPass = resolve }),
    resume: () => { done.push('resume') },
  })
  return { rebuild, done, endPass: () => endPass() }
}

describe('the damage rebuild', () => {
  it('starts one rebuild for any number of damaged answers, and resumes the usual pass once its own is done', async () => {
    const { rebuild, done, endPass } = rebuildOf()
    expect(rebuild.foundIn(new Error(`${DAMAGED_MESSAGE}: page 3`))).toBe(true)
    expect(rebuild.foundIn(new Error(`${DAMAGED_MESSAGE}: page 4`))).toBe(true)
    expect([rebuild.rebuilding, rebuild.damaged, done]).toEqual([true, 1, [`forget: ${DAMAGED_MESSAGE}: page 3`]])
    endPass()
    await Promise.resolve()
    await Promise.resolve()
    expect([rebuild.rebuilding, done.at(-1)]).toEqual([false, 'resume'])
    expect(rebuild.foundIn(new Error(DAMAGED_MESSAGE))).toBe(true)
    expect(rebuild.damaged).toBe(2)
  })

  it('takes no other error for damage, and starts nothing once stopped', () => {
    const running = rebuildOf()
    expect(running.rebuild.foundIn(new Error('indexing is paused: low disk space'))).toBe(false)
    expect(running.rebuild.foundIn('nothing')).toBe(false)
    expect(running.done).toEqual([])
    const stopped = rebuildOf(true)
    expect(stopped.rebuild.foundIn(new Error(DAMAGED_MESSAGE))).toBe(true)
    expect([stopped.rebuild.rebuilding, stopped.done]).toEqual([false, []])
  })
})

describe('the index readiness', () => {
  it('resolves its waiters when marked, and makes later ones wait again once unmarked', async () => {
    const readiness = new IndexReadiness()
    const order: string[] = []
    const first = readiness.whenReady().then(() => order.push('first'))
    await Promise.resolve()
    expect(order).toEqual([])
    readiness.mark()
    await first
    readiness.unmark()
    let later = false
    const second = readiness.whenReady().then(() => { later = true })
    await Promise.resolve()
    expect([readiness.ready, later, order]).toEqual([false, false, ['first']])
    readiness.mark()
    await second
    expect(later).toBe(true)
  })
})
