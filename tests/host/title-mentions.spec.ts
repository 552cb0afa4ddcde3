/** @Title at the pre-step: CJK text right after a title, the longest title first, and either Unicode normalization form. */
import { describe, expect, it } from 'vitest'
import { A, createHostHarness, type HostHarness, id, snapshots, TARGET } from './harness.ts'

async function setup(): Promise<HostHarness> {
  const harness = await createHostHarness()
  harness.session(TARGET, { cwd: A })
  harness.session(id(2), { cwd: A, title: '发布计划', messages: ['发布计划的正文'] })
  harness.session(id(3), { cwd: A, title: '发布', messages: ['只有发布'] })
  harness.session(id(4), { cwd: A, title: 'Q3 OKR', messages: ['okr body'] })
  harness.session(id(5), { cwd: A, title: 'Caf\u00e9 notes', messages: ['coffee body'] })
  harness.session(id(6), { cwd: A, title: 'Th\u00e9', messages: ['first tea'] })
  harness.session(id(7), { cwd: A, title: 'The\u0301', messages: ['second tea'] })
  await harness.mount()
  return harness
}

describe('@Title at the pre-step: CJK followers and Unicode forms', () => {
  it('resolves a Chinese title followed directly by Chinese text, the longest title first', async () => {
    const h = await setup()
    const [snapshot, ...rest] = snapshots(await h.preStep(TARGET, ['@发布计划总结一下']))
    expect(rest).toEqual([])
    expect(snapshot).toContain('发布计划的正文')
    expect(snapshot).not.toContain('只有发布')
    expect(snapshots(await h.preStep(TARGET, ['@发布会怎么样']))[0]).toContain('只有发布')
  })

  it('resolves a Latin title followed directly by Chinese text', async () => {
    const h = await setup()
    expect(snapshots(await h.preStep(TARGET, ['@Q3 OKR总结一下']))[0]).toContain('okr body')
  })

  it('resolves a title typed in the other normalization form', async () => {
    const h = await setup()
    expect(snapshots(await h.preStep(TARGET, ['@Cafe\u0301 notes, please']))[0]).toContain('coffee body')
    expect(snapshots(await h.preStep(TARGET, ['@caf\u00e9 NOTES']))[0]).toContain('coffee body')
  })

  it('leaves titles that differ only in normalization form plain, as duplicates', async () => {
    const h = await setup()
    expect(snapshots(await h.preStep(TARGET, ['@Th\u00e9 please']))).toEqual([])
    expect(snapshots(await h.preStep(TARGET, ['@The\u0301 please']))).toEqual([])
  })
})
