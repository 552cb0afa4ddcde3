/**
 * The "Session references" card: collapsed by default; expanded, it switches
 * the reference scope and shows the other keys read-only, each by its name in
 * the UI language with its effective value and where that value comes from
 * (the plugin row config, or `settings.yaml` when the user layer sets the
 * key). Reads and writes through the injected settings scope.
 * @module @wishp3/dsh-sessions/client/settings/ScopeCard
 */
import { useState } from 'react'
import { IconChevronDownOutline14 } from '@deepseek-ai/dsh-client-ui-primitives'
import type { Config, ReferenceScope } from '../../config.ts'
import type { ScopeCardProps } from '../contract.ts'
import type { SessionsKey } from '../locales.ts'
import css from './ScopeCard.module.css'

const SCOPES: readonly ReferenceScope[] = ['workspace', 'all']
const OTHERS = ['allowBareSessionIds', 'allowPlainTitleMentions', 'candidateLimit', 'failureMode', 'agentTools', 'indexFreeSpaceMiB'] as const

/** A read-only key's value in the UI language. */
function valueText(config: Config, key: (typeof OTHERS)[number], t: (key: SessionsKey) => string): string {
  switch (key) {
    case 'allowBareSessionIds':
    case 'allowPlainTitleMentions':
    case 'agentTools':
      return t(config[key] ? 'settings.value.on' : 'settings.value.off')
    case 'candidateLimit':
      return String(config.candidateLimit)
    case 'failureMode':
      return t(config.failureMode === 'reject' ? 'settings.value.reject' : 'settings.value.passthrough')
    case 'indexFreeSpaceMiB':
      return config.indexFreeSpaceMiB === 0 ? t('settings.value.freeSpaceAuto') : `${config.indexFreeSpaceMiB} MiB`
  }
}

/**
 * Renders the card.
 * @param props - copy, the settings snapshot hook and the save action.
 * @returns the card, or nothing while the section is unavailable.
 */
export function ScopeCard(props: ScopeCardProps) {
  const { t } = props
  const state = props.useScopeCard(snapshot => snapshot)
  const [open, setOpen] = useState(false)
  const [staged, setStaged] = useState<ReferenceScope | undefined>(undefined)
  const [status, setStatus] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle')
  if (!state.available || state.value === undefined) return null
  const current = state.value.scope
  const chosen = staged ?? current
  const dirty = chosen !== current
  const title = t('settings.title')
  const save = () => {
    setStatus('saving')
    props.saveScope(chosen).then(
      () => {
        setStaged(undefined)
        setStatus('saved')
      },
      () => { setStatus('failed') },
    )
  }
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
            <fieldset className={css.options} role="radiogroup" aria-label={t('settings.scope.label')}>
              <legend className={css.legend}>{t('settings.scope.label')}</legend>
              {SCOPES.map(scope => (
                <label key={scope} className={css.option}>
                  <input
                    type="radio"
                    name="dsh-sessions-scope"
                    value={scope}
                    checked={chosen === scope}
                    disabled={!state.writable || status === 'saving'}
                    onChange={() => {
                      setStaged(scope)
                      setStatus('idle')
                    }}
                  />
                  {t(scope === 'workspace' ? 'settings.scope.workspace' : 'settings.scope.all')}
                </label>
              ))}
            </fieldset>
            <p className={css.hint}>{t('settings.others')}</p>
            <dl className={css.others}>
              {OTHERS.map(key => (
                <div key={key} className={css.setting} data-dsh-sessions-setting={key}>
                  <dt>{t(`settings.key.${key}`)}</dt>
                  <dd>
                    <span>{valueText(state.value!, key, t)}</span>
                    <span className={css.source}>{t(state.fromFile.has(key) ? 'settings.source.file' : 'settings.source.row')}</span>
                  </dd>
                </div>
              ))}
            </dl>
            <div className={css.footer}>
              {status === 'saved' || status === 'failed'
                ? <span className={css.hint} role="status">{t(status === 'saved' ? 'settings.saved' : 'settings.saveFailed')}</span>
                : null}
              <button type="button" className={css.save} disabled={!dirty || !state.writable || status === 'saving'} onClick={save}>
                {t(status === 'saving' ? 'settings.saving' : 'settings.save')}
              </button>
            </div>
          </div>
        )
        : null}
    </li>
  )
}
