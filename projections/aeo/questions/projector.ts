import type { Projector } from '../../projector.js'

/** Placeholder until the aeo questions projector lands. */
export const aeoQuestionsProjector: Projector = { name: 'aeo_questions', handlers: {} }
