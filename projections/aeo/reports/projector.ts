import type { Projector } from '../../projector.js'

/** Placeholder until the aeo reports projector lands. */
export const aeoReportsProjector: Projector = { name: 'aeo_reports', handlers: {} }
