/** The insights events (domain/search/insights): filled in by the area. */
export const insightsEventSchemas = {} as const
