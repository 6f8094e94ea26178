/** The reference-docs sub-area's events (issue 28): reference documents (an organization's brand voice, style guide, service facts); see README.md beside this file. */
export const referenceDocsEventSchemas = {} as const
