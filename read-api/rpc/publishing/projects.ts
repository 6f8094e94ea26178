import type { AnyRpc } from '../../registry.js'
import { elementorPageRpcs } from './projects/elementor-pages.js'
import { generatedContentRpcs } from './projects/generated-content.js'
import { sitemapPageRpcs } from './projects/sitemap-pages.js'
import { websiteProjectRpcs } from './projects/website-projects.js'

/** The website projects, sitemap pages, generated content and Elementor pages sub-area's methods. */
export const websiteProjectsRpcs: readonly AnyRpc[] = [
  ...websiteProjectRpcs,
  ...sitemapPageRpcs,
  ...generatedContentRpcs,
  ...elementorPageRpcs,
]
