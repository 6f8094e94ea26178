import type { Projector } from '../../projector.js'

/** Placeholder until the aeo runs projector lands. */
export const aeoRunsProjector: Projector = { name: 'aeo_runs', handlers: {} }
