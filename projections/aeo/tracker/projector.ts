import type { Projector } from '../../projector.js'

/** Placeholder until the aeo tracker projector lands. */
export const aeoTrackerProjector: Projector = { name: 'aeo_tracker', handlers: {} }
