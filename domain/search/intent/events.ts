/** The intent events (domain/search/intent): filled in by the area. */
export const intentEventSchemas = {} as const
