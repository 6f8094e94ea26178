/** The associations events (domain/search/associations): filled in by the area. */
export const associationsEventSchemas = {} as const
