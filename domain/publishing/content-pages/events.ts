/** The content pages and Elementor pages sub-area's events (issue 27); see README.md beside this file. */
export const contentPagesEventSchemas = {} as const
