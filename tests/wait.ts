/** The shared poll, for every test layer: see `dev/poll.ts`. */
export { until } from '../dev/poll.ts'
