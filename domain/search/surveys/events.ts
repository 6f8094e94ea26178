/** The surveys events (domain/search/surveys): filled in by the area. */
export const surveysEventSchemas = {} as const
