/** The metrics events (domain/search/metrics): filled in by the area. */
export const keywordMetricsEventSchemas = {} as const
