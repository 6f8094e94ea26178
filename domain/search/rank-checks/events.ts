/** The rank-checks events (domain/search/rank-checks): filled in by the area. */
export const rankChecksEventSchemas = {} as const
