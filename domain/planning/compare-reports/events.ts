/** The compare reports sub-area's events (issue 26); see README.md beside this file. */
export const compareReportsEventSchemas = {} as const
