/** The images sub-area's events (issue 28): client images, their sync to the site and alt text; see README.md beside this file. */
export const imagesEventSchemas = {} as const
