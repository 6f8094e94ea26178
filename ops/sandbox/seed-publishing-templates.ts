import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { recordTemplateCatalogEntry } from '../../commands/publishing/templates/catalog.js'
import { seedBuiltInSectionTemplates, loadSectionCatalog } from '../../commands/publishing/templates/section-templates.js'
import { addTemplatePage } from '../../commands/publishing/templates/template-pages.js'
import { activeSectionTemplateNamed } from '../../domain/publishing/templates/section-catalog.js'
import type { PageSection } from '../../domain/publishing/templates/values.js'
import type { SandboxProject } from './seed-publishing-projects.js'

const VAN_PHOTO = 'https://www.rapidrooterplumbing.example/media/van.jpg'

/**
 * The sandbox's fictional templates: the platform's built-in section templates (added once, on the first
 * sandbox seed of a deployment; a reseed adds nothing), the client's own saved Elementor templates as its
 * library (the project names the client as its library client), and the project's home page built from a
 * saved header and the built-in hero, one image still needed.
 */
export async function seedSandboxTemplates(
  write: WriteDeps,
  ctx: CommandContext,
  orgId: number,
  clientId: number,
  project: SandboxProject,
): Promise<void> {
  await seedBuiltInSectionTemplates(write, ctx)
  const hero = activeSectionTemplateNamed(await loadSectionCatalog(write), 'hero', 'Hero with call to action')
  const entries = [
    { templateId: 9101, title: 'Site header with phone', role: 'header' as const, tags: ['header', 'phone'] },
    { templateId: 9102, title: 'Footer with service areas', role: 'footer' as const, tags: ['footer'] },
  ]
  for (const entry of entries) {
    await recordTemplateCatalogEntry(write, ctx, {
      callerOrgId: orgId,
      libraryClientId: clientId,
      templateId: entry.templateId,
      title: entry.title,
      role: entry.role,
      tags: entry.tags,
      thumbnail_url: null,
      modified_gmt: '2026-01-05T10:00:00',
    })
  }
  // An operator may have retired the built-in hero on this deployment: the page is then built from the header alone.
  const sections: PageSection[] = [{ source: 'catalog', template_id: 9101, fields: {} }]
  if (hero) {
    sections.push({
      source: 'section_template',
      template_id: hero.id,
      fields: {
        headline: 'Austin plumbers who answer the phone',
        subheadline: 'Drains, water heaters and emergencies, 24/7',
        cta_label: 'Call now',
        cta_link: 'tel:+15125550143',
        background_image: VAN_PHOTO,
      },
    })
  }
  await addTemplatePage(write, ctx, {
    callerOrgId: orgId,
    projectId: project.projectId,
    sitemap_page_id: project.homePageId,
    title: 'Home',
    status: 'ready',
    sections,
    images: [
      { slot: 'hero_background', url: VAN_PHOTO, alt: 'Rapid Rooter van', status: 'chosen' },
      { slot: 'team_photo', url: null, alt: '', status: 'needed' },
    ],
  })
}
