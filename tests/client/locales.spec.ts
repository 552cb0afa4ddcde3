import { Context } from '@deepseek-ai/cordis'
import { describe, expect, it, vi } from 'vitest'
import * as client from '../../src/client/index.ts'
import { en, NS, zh } from '../../src/client/locales.ts'

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map(match => match[1]).sort()

describe('browser dictionaries', () => {
  it('have the same keys and placeholders in zh and en', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort())
    for (const key of Object.keys(zh) as (keyof typeof zh)[]) {
      expect(zh[key].trim(), key).not.toBe('')
      expect(en[key].trim(), key).not.toBe('')
      expect(placeholders(en[key]), key).toEqual(placeholders(zh[key]))
    }
  })

  it('are registered as an effect that disposing the row removes', async () => {
    const unregister = vi.fn()
    const register = vi.fn(() => unregister)
    const ctx = new Context()
    ctx.provide('locale', { register })
    const fiber = ctx.plugin(client as never, {} as never)
    await fiber
    expect(register).toHaveBeenCalledWith(NS, { zh, en })
    expect(unregister).not.toHaveBeenCalled()
    await fiber.dispose()
    expect(unregister).toHaveBeenCalledOnce()
  })
})
