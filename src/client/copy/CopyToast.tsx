/**
 * The feedback of a copy action, beside the element it came from (see `core/placement.ts`).
 * @module @wishp3/dsh-sessions/client/copy/CopyToast
 */
import { useLayoutEffect, useState } from 'react'
import { IconCheckOutline16, IconWarningOutline16 } from '@deepseek-ai/dsh-client-ui-primitives'
import css from './CopyToast.module.css'
import { placeToast, type ToastPlacement, type ToastSide } from '../core/placement.ts'

/** Props of one toast. */
export interface CopyToastProps {
  readonly text: string
  /** Whether the copy succeeded. */
  readonly ok: boolean
  /** The element the copy came from; `null` when it is gone. */
  readonly anchor: HTMLElement | null
  readonly side: ToastSide
}

function measure(anchor: HTMLElement | null, side: ToastSide): ToastPlacement {
  const box = anchor?.isConnected === true ? anchor.getBoundingClientRect() : undefined
  return placeToast(box, side, { width: window.innerWidth, height: window.innerHeight })
}

/** Renders the toast. */
export function CopyToast(props: CopyToastProps) {
  const { anchor, side } = props
  const [placement, setPlacement] = useState(() => measure(anchor, side))
  useLayoutEffect(() => {
    const update = () => { setPlacement(measure(anchor, side)) }
    update()
    window.addEventListener('scroll', update, true)
    window.addEventListener('resize', update)
    return () => {
      window.removeEventListener('scroll', update, true)
      window.removeEventListener('resize', update)
    }
  }, [anchor, side])
  return (
    <div
      className={css.toast}
      data-side={placement.side}
      data-dsh-sessions-toast={props.ok ? 'done' : 'failed'}
      style={{ top: placement.top, left: placement.left }}
    >
      <span className={`${css.icon} ${props.ok ? css.done : css.failed}`} aria-hidden="true">
        {props.ok ? <IconCheckOutline16 /> : <IconWarningOutline16 />}
      </span>
      <span className={css.text}>{props.text}</span>
    </div>
  )
}
