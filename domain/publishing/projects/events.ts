/** The website projects, sitemap pages and generated content sub-area's events (issue 27); see README.md beside this file. */
export const websiteProjectsEventSchemas = {} as const
