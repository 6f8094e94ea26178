/** The redirects sub-area's events (issue 27); see README.md beside this file. */
export const redirectsEventSchemas = {} as const
