/** The ranks events (domain/search/ranks): filled in by the area. */
export const ranksEventSchemas = {} as const
