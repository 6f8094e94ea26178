import type { Projector } from '../../projector.js'

/** Placeholder until the aeo captures projector lands. */
export const aeoCapturesProjector: Projector = { name: 'aeo_captures', handlers: {} }
