import { KeywordAddedV1 } from './events.js'

/**
 * The keywords area's upcasters (registered in domain/upcasters.ts). KeywordAdded v1 → v2: a keyword added
 * before intent existed has none yet (null), exactly as a v2 keyword no one has classified.
 */
export const keywordUpcasters = [
  {
    type: 'KeywordAdded',
    fromVersion: 1,
    up: (data: unknown) => ({ ...KeywordAddedV1.parse(data), intent: null }),
  },
] as const
