import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { recordElementorPage } from '../../commands/publishing/projects/elementor-pages.js'

const widget = (id: string, widgetType: string, settings: Record<string, unknown>) => ({ id, elType: 'widget', widgetType, settings })
const container = (id: string, elements: object[]) => ({ id, elType: 'container', settings: {}, elements })

/**
 * Two Elementor pages of the sandbox project's site as an agent read them: the home page (post 7, the one the
 * sitemap's home page was published to) and the drain cleaning page of the current site (post 11). Fictional,
 * fixed stamps: the same every reset.
 */
export async function seedSandboxElementorPages(write: WriteDeps, ctx: CommandContext, orgId: number, projectId: number): Promise<void> {
  const home = [
    container('a1f3c20', [
      widget('b27e9d1', 'heading', { title: 'Austin plumbers who answer the phone', header_size: 'h1' }),
      widget('c81d4a7', 'text-editor', { editor: '<p>Drain cleaning, water heaters and emergency repairs, 24/7.</p>' }),
      widget('d09a6b3', 'button', { text: 'Call (512) 555-0142', link: { url: 'tel:+15125550142' } }),
    ]),
    container('e4c7f15', [
      widget('f62b8e0', 'image', { image: { url: 'https://rapidrooterplumbing.example/wp-content/uploads/van.jpg' } }),
      widget('0a9d3c4', 'heading', { title: 'Same-day service across Austin and Round Rock', header_size: 'h2' }),
    ]),
  ]
  const drains = [
    container('1b8e5f2', [
      widget('2c4a7d9', 'heading', { title: 'Drain cleaning in Austin', header_size: 'h1' }),
      widget('3d6f1a8', 'text-editor', { editor: '<p>Slow sinks and backed-up main lines, cleared with camera inspection.</p>' }),
      widget('4e2b9c0', 'icon-list', { icon_list: [{ text: 'Hydro-jetting' }, { text: 'Camera inspection' }] }),
    ]),
  ]
  const page = (wpPostId: number, title: string, slug: string, modifiedGmt: string, data: object[]) =>
    recordElementorPage(write, ctx, {
      orgId,
      projectId,
      page: {
        wpPostId,
        title,
        slug,
        status: 'publish',
        link: `https://rapidrooterplumbing.example/${slug === 'home' ? '' : `${slug}/`}`,
        modifiedGmt,
        elementorData: JSON.stringify(data),
      },
    })
  await page(7, 'Home', 'home', '2026-10-14T16:05:32', home)
  await page(11, 'Drain cleaning', 'drain-cleaning', '2026-09-30T09:12:48', drains)
}
