/** The section templates, the template catalog and template pages sub-area's events (issue 27); see README.md beside this file. */
export const templatesEventSchemas = {} as const
