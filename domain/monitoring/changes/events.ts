/** The changes sub-area's events (issue 25); see README.md beside this file. */
export const siteChangesEventSchemas = {} as const
