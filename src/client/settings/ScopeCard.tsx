/**
 * The "Session references" card: collapsed by default; expanded, every key of the `dsh-sessions`
 * section is edited here, each by its name in the UI language, checked as the settings route checks
 * it, and saved together to `settings.yaml` through the injected settings scope, applied at once.
 * @module @wishp3/dsh-sessions/client/settings/ScopeCard
 */
import { useState } from 'react'
import { Button, IconChevronDownOutline14, Input } from '@deepseek-ai/dsh-client-ui-primitives'
import type { Config } from '../../config.ts'
import { DEFAULTS, FAILURE_MODES, MAX_CANDIDATE_LIMIT, MAX_FREE_SPACE_MIB, REFERENCE_MODES, REFERENCE_SCOPES, settingRefusal } from '../../shared/settings-rules.ts'
import type { ScopeCardProps, ScopeCardState } from '../contract.ts'
import type { SessionsKey } from '../locales.ts'
import css from './ScopeCard.module.css'

const SWITCHES = ['allowBareSessionIds', 'allowPlainTitleMentions', 'agentTools', 'suggestRelated'] as const
const NUMBERS = { candidateLimit: [1, MAX_CANDIDATE_LIMIT], indexFreeSpaceMiB: [0, MAX_FREE_SPACE_MIB] } as const
type NumberKey = keyof typeof NUMBERS

/** What the card holds before Save: changed values, and numbers as typed. */
interface Staged {
  readonly values: Partial<Config>
  readonly typed: Partial<Record<NumberKey, string>>
}

const NOTHING: Staged = { values: {}, typed: {} }

/** Where a key's value comes from, in words. */
function sourceKey(state: ScopeCardState, key: keyof Config): SessionsKey {
  if (state.fromFile.has(key)) return 'settings.source.here'
  const base = state.base?.[key]
  return base !== undefined && base !== DEFAULTS[key] ? 'settings.source.profile' : 'settings.source.default'
}

/** The patch to save, or the first refusal, in the UI language. */
function checked(staged: Staged, t: ScopeCardProps['t']): { readonly patch: Partial<Config> } | { readonly refusal: string } {
  const patch: Record<string, unknown> = { ...staged.values }
  for (const [key, text] of Object.entries(staged.typed) as [NumberKey, string][]) {
    const value = text.trim() === '' ? Number.NaN : Number(text)
    if (settingRefusal(key, value) !== undefined) {
      const [min, max] = NUMBERS[key]
      return { refusal: t('settings.invalidNumber', { name: t(`settings.key.${key}`), min: String(min), max: max.toLocaleString() }) }
    }
    patch[key] = value
  }
  return { patch: patch as Partial<Config> }
}

/** Renders the card. `props`: copy, the settings snapshot hook and the save action. Returns the card, or nothing while the section is unavailable. */
export function ScopeCard(props: ScopeCardProps) {
  const { t } = props
  const state = props.useScopeCard(snapshot => snapshot)
  const [open, setOpen] = useState(false)
  const [staged, setStaged] = useState<Staged>(NOTHING)
  const [status, setStatus] = useState<{ readonly kind: 'idle' | 'saving' | 'saved' | 'failed' } | { readonly kind: 'refused'; readonly text: string }>({ kind: 'idle' })
  if (!state.available || state.value === undefined) return null
  const value = { ...state.value, ...staged.values }
  const dirty = Object.keys(staged.values).length > 0 || Object.keys(staged.typed).length > 0
  const locked = !state.writable || status.kind === 'saving'
  const title = t('settings.title')
  const stage = (next: Staged) => {
    setStaged(next)
    setStatus({ kind: 'idle' })
  }
  const change = <K extends keyof Config>(key: K, next: Config[K]) => { stage({ ...staged, values: { ...staged.values, [key]: next } }) }
  const save = () => {
    const result = checked(staged, t)
    if ('refusal' in result) {
      setStatus({ kind: 'refused', text: result.refusal })
      return
    }
    setStatus({ kind: 'saving' })
    props.save(result.patch).then(
      () => {
        setStaged(NOTHING)
        setStatus({ kind: 'saved' })
      },
      () => { setStatus({ kind: 'failed' }) },
    )
  }
  const source = (key: keyof Config) => <span className={css.source} data-dsh-sessions-source="">{t(sourceKey(state, key))}</span>
  // A key's row: its name and where its value comes from on the left, its control on the right.
  const name = (key: (typeof SWITCHES)[number] | NumberKey | 'failureMode' | 'referenceMode', hint?: string) => (
    <dt className={css.name}>
      <label htmlFor={`dsh-sessions-${key}`}>{t(`settings.key.${key}`)}</label>
      {hint === undefined ? null : <span className={css.source}>{hint}</span>}
      {source(key)}
    </dt>
  )
  return (
    <li className={open ? `${css.card} ${css.open}` : css.card} data-dsh-sessions-card="">
      <button
        type="button"
        className={css.header}
        aria-expanded={open}
        aria-label={`${t(open ? 'settings.collapse' : 'settings.expand')}: ${title}`}
        onClick={() => { setOpen(!open) }}
      >
        <span className={css.heading}>
          <span className={css.title}>{title}</span>
          <span className={css.description}>{t('settings.description')}</span>
        </span>
        <IconChevronDownOutline14 className={open ? `${css.chevron} ${css.chevronOpen}` : css.chevron} />
      </button>
      {open
        ? (
          <div className={css.body}>
            <fieldset className={css.options} role="radiogroup" aria-label={t('settings.scope.label')} data-dsh-sessions-setting="scope">
              <legend className={css.legend}>{t('settings.scope.label')} {source('scope')}</legend>
              {REFERENCE_SCOPES.map(scope => (
                <label key={scope} className={css.option}>
                  <input type="radio" name="dsh-sessions-scope" value={scope} checked={value.scope === scope} disabled={locked} onChange={() => { change('scope', scope) }} />
                  {t(scope === 'workspace' ? 'settings.scope.workspace' : 'settings.scope.all')}
                </label>
              ))}
            </fieldset>
            <dl className={css.others}>
              {SWITCHES.map(key => (
                <div key={key} className={css.setting} data-dsh-sessions-setting={key}>
                  {name(key)}
                  <dd>
                    <input id={`dsh-sessions-${key}`} className={css.check} type="checkbox" checked={value[key]} disabled={locked} onChange={event => { change(key, event.currentTarget.checked) }} />
                  </dd>
                </div>
              ))}
              <div className={css.setting} data-dsh-sessions-setting="failureMode">
                {name('failureMode')}
                <dd>
                  <select id="dsh-sessions-failureMode" className={css.select} value={value.failureMode} disabled={locked} onChange={event => { const picked = event.currentTarget.value; change('failureMode', FAILURE_MODES.find(mode => mode === picked) ?? value.failureMode) }}>
                    {FAILURE_MODES.map(mode => <option key={mode} value={mode}>{t(mode === 'reject' ? 'settings.value.reject' : 'settings.value.passthrough')}</option>)}
                  </select>
                </dd>
              </div>
              <div className={css.setting} data-dsh-sessions-setting="referenceMode">
                {name('referenceMode')}
                <dd>
                  <select id="dsh-sessions-referenceMode" className={css.select} value={value.referenceMode} disabled={locked} onChange={event => { const picked = event.currentTarget.value; change('referenceMode', REFERENCE_MODES.find(mode => mode === picked) ?? value.referenceMode) }}>
                    {REFERENCE_MODES.map(mode => <option key={mode} value={mode}>{t(mode === 'agent' ? 'settings.value.agent' : 'settings.value.snapshot')}</option>)}
                  </select>
                </dd>
              </div>
              {(Object.keys(NUMBERS) as NumberKey[]).map(key => (
                <div key={key} className={css.setting} data-dsh-sessions-setting={key}>
                  {name(key, key === 'indexFreeSpaceMiB' ? t('settings.value.freeSpaceHint') : undefined)}
                  <dd>
                    <Input
                      id={`dsh-sessions-${key}`}
                      className={css.number ?? ''}
                      type="number"
                      inputMode="numeric"
                      min={NUMBERS[key][0]}
                      max={NUMBERS[key][1]}
                      step={1}
                      value={staged.typed[key] ?? String(value[key])}
                      disabled={locked}
                      onChange={event => { stage({ ...staged, typed: { ...staged.typed, [key]: event.currentTarget.value } }) }}
                    />
                  </dd>
                </div>
              ))}
            </dl>
            <p className={css.hint}>{t('settings.others')}</p>
            <div className={css.footer}>
              {status.kind === 'saved' || status.kind === 'failed' || status.kind === 'refused'
                ? <span className={css.hint} role={status.kind === 'saved' ? 'status' : 'alert'}>{status.kind === 'refused' ? status.text : t(status.kind === 'saved' ? 'settings.saved' : 'settings.saveFailed')}</span>
                : null}
              <Button variant="primary" size="sm" disabled={!dirty || locked} onClick={save}>
                {t(status.kind === 'saving' ? 'settings.saving' : 'settings.save')}
              </Button>
            </div>
          </div>
        )
        : null}
    </li>
  )
}
