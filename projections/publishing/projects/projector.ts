import type { Projector } from '../../projector.js'

/** The website projects, sitemap pages and generated content sub-area's projectors. */
export const websiteProjectsProjectors: readonly Projector[] = []
