import type { AnyRpc } from '../../registry.js'

/** The website projects, sitemap pages and generated content sub-area's methods. */
export const websiteProjectsRpcs: readonly AnyRpc[] = []
