import { Id } from '../../../../domain/shared/values.js'

/* The ids the projects sub-area's methods take, each described once. */

export const domain = 'publishing'

export const ProjectId = Id.describe('The website project (an integer id, as add_website_project or get_projects_for_client answered)')
export const SitemapPageId = Id.describe('The sitemap page (an integer id, as add_sitemap_page or get_sitemap_pages_for_project answered)')
export const ContentId = Id.describe('The generated content (an integer id, as record_generated_content answered)')
export const WpPostId = Id.describe("The page's post id on the project's WordPress site")
