/** The blog sub-area's events (issue 28): blog topics, drafts and the publishing schedule; see README.md beside this file. */
export const blogEventSchemas = {} as const
