/** The gsc events (domain/search/gsc): filled in by the area. */
export const gscEventSchemas = {} as const
