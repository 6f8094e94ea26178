import { loadClient } from '../../commands/clients.js'
import { loadState, type CommandContext, type WriteDeps } from '../../commands/command-handler.js'
import { decode } from '../../commands/event-store/decode.js'
import { intentContentHash } from '../../commands/search/intent/content-hash.js'
import { recordIntentClassification, setPageIntent } from '../../commands/search/intent/page-intent.js'
import { pageSet } from '../../domain/pages/page-set.js'
import { classifyIntentByRules } from '../../domain/search/intent/rules.js'

/** The sandbox agency's one decision about a page's intent: its service page is where customers book. */
const OVERRIDE = {
  path: '/services/drain-cleaning',
  intent: 'transactional',
  note: 'Customers book from this page; the form is the point',
} as const

/** The page's newest snapshot on its content stream, if it has one. */
async function newestSnapshot(write: WriteDeps, pageId: number): Promise<{ id: number; title: string; content: string } | null> {
  let newest: { id: number; title: string; content: string } | null = null
  for await (const recorded of write.store.readStream(`page-${pageId}`)) {
    const event = decode(recorded)
    if (event.type === 'PageSnapshotRecorded' && (newest === null || event.data.snapshot_id > newest.id)) {
      newest = { id: event.data.snapshot_id, title: event.data.title, content: event.data.content }
    }
  }
  return newest
}

/**
 * The sandbox's intents: every active page of its client classified by the rules, as the intent processor
 * does it (fiction never spends model calls), from the log rather than the read models (seeding writes
 * ahead of them), and the agency's override of its service page. Deterministic: the same pages, client and
 * rules give the same classifications; a page the running processor classified first records nothing again.
 */
export async function seedSandboxIntent(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const client = await loadClient(write.store, clientId)
  const facts = {
    name: client.name,
    services: client.services.map((s) => s.name),
    locations: client.locations.map((l) => ({ name: l.name, city: l.city, state: l.state })),
  }
  const { pages } = await loadState(write.store, pageSet, clientId)
  for (const page of pages.filter((p) => p.active)) {
    const snapshot = await newestSnapshot(write, page.id)
    const title = snapshot?.title ?? page.title
    const content = snapshot?.content ?? ''
    const rules = classifyIntentByRules({ url: page.url, title, content, client: facts })
    await recordIntentClassification(write, ctx, {
      orgId,
      classification: {
        page_id: page.id,
        client_id: clientId,
        content_sha256: intentContentHash(title, content),
        snapshot_id: snapshot?.id ?? null,
        ...rules,
        classifier: 'rules',
        model: null,
        fallback_reason: null,
        request_id: null,
      },
    })
    if (new URL(page.url, 'https://sandbox.invalid').pathname === OVERRIDE.path) {
      await setPageIntent(write, ctx, { orgId, clientId, pageId: page.id, intent: OVERRIDE.intent, note: OVERRIDE.note })
    }
  }
}
