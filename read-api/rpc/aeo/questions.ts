import type { AnyRpc } from '../../registry.js'

/** Placeholder until the aeo questions RPCs land. */
export const aeoQuestionsRpcs: AnyRpc[] = []
