/** The hour budgets and cycles sub-area's events (issue 26); see README.md beside this file. */
export const cyclesEventSchemas = {} as const
