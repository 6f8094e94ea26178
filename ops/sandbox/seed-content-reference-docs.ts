import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { addReferenceDoc, liveReferenceDocs, updateReferenceDoc } from '../../commands/content/reference-docs.js'
import { titleKey } from '../../domain/content/reference-docs/rules.js'

/**
 * The sandbox's fictional reference documents: the organization's brand voice (at version 2, so its history
 * shows an update) and its service facts. Both are organization-wide: the organization's stream outlives a
 * reset, which retires the client, so a document already there is left as it is and nothing names a retired
 * client (a reseed records no event at all).
 */
export async function seedSandboxReferenceDocs(write: WriteDeps, ctx: CommandContext, orgId: number, _clientId: number): Promise<void> {
  const live = await liveReferenceDocs(write, orgId)
  const has = (title: string) => live.some((d) => d.clientId === null && titleKey(d.title) === titleKey(title))
  if (!has('House voice')) {
    const voice = await addReferenceDoc(write, ctx, {
      orgId,
      clientId: null,
      kind: 'brand_voice',
      title: 'House voice',
      body: 'Friendly and plain-spoken, like a neighbour who happens to be a plumber.',
    })
    await updateReferenceDoc(write, ctx, {
      orgId,
      docId: voice.docId,
      body: [
        'Friendly and plain-spoken, like a neighbour who happens to be a plumber.',
        '',
        '- Second person ("you"), short sentences, no trade jargon without a one-line explanation.',
        '- Lead with what the reader can do now; put the phone number in the first paragraph of a service page.',
        '- Never promise a time we cannot keep: "usually within two hours", not "in minutes".',
        '- No fear-selling: describe the risk of a leak plainly, once.',
      ].join('\n'),
    })
  }
  if (!has('Rapid Rooter service facts')) {
    await addReferenceDoc(write, ctx, {
      orgId,
      clientId: null,
      kind: 'service_facts',
      title: 'Rapid Rooter service facts',
      body: [
        'Service area: Austin, Round Rock, Cedar Park, Pflugerville and Georgetown, TX.',
        'Hours: 24/7 for emergencies; scheduled work Monday to Saturday, 7am to 7pm.',
        'Licence: Texas master plumber licence M-40521 (fictional).',
        'Pricing: free estimates; a flat $89 call-out fee, waived when the repair goes ahead.',
        'Guarantee: 12 months on parts and labour for every repair.',
      ].join('\n'),
    })
  }
}
