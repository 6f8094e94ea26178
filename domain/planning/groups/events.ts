/** The client groups sub-area's events (issue 26); see README.md beside this file. */
export const clientGroupsEventSchemas = {} as const
