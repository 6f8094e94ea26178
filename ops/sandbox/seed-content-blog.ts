import { addBlogTopic, setBlogSchedule, setBlogTopicStatus } from '../../commands/content/blog.js'
import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'

/**
 * The sandbox's fictional blog topics and publishing schedule: two posts a week, topics from each source in
 * several statuses (one scheduled, one published, one rejected), so every blog read shows something.
 */
export async function seedSandboxBlog(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  await setBlogSchedule(write, ctx, {
    callerOrgId: orgId,
    clientId,
    schedule: { postsPerWeek: 2, days: ['tue', 'thu'], time: '09:30', timezone: 'America/Chicago', active: true, startDate: '2026-01-06' },
  })
  const topic = async (
    title: string,
    targetKeyword: string,
    source: 'keyword_gap' | 'gsc_query' | 'aeo_question' | 'manual',
    sourceRef: string,
  ) =>
    (
      await addBlogTopic(write, ctx, {
        callerOrgId: orgId,
        clientId,
        title,
        targetKeyword,
        source,
        sourceRef,
        notes: '',
        status: 'proposed',
        plannedDate: null,
      })
    ).topicId
  const move = (
    topicId: number,
    statuses: readonly ('approved' | 'drafted' | 'scheduled' | 'published' | 'rejected')[],
    plannedDate?: string,
    reason = '',
  ) =>
    statuses.reduce(
      (previous, status) =>
        previous.then(() =>
          setBlogTopicStatus(write, ctx, { callerOrgId: orgId, clientId, topicId, status, plannedDate, reason }).then(() => undefined),
        ),
      Promise.resolve(),
    )
  await topic('How to Unclog a Bathroom Sink Without Chemicals', 'unclog bathroom sink', 'gsc_query', 'how to unclog a bathroom sink')
  const approved = await topic(
    'Tankless vs. Tank Water Heaters in Central Texas',
    'tankless water heater austin',
    'keyword_gap',
    'tankless water heater austin',
  )
  await move(approved, ['approved'])
  const scheduled = await topic(
    'Who Is the Best Emergency Plumber in Round Rock?',
    'emergency plumber round rock',
    'aeo_question',
    'best emergency plumber in round rock',
  )
  await move(scheduled, ['approved', 'drafted', 'scheduled'], '2026-01-15')
  const published = await topic('5 Signs Your Sewer Line Needs Repair', 'sewer line repair signs', 'manual', '')
  await move(published, ['approved', 'drafted', 'scheduled', 'published'], '2026-01-08')
  const rejected = await topic('Plumbing Jokes for the Holidays', '', 'manual', '')
  await move(rejected, ['rejected'], undefined, 'Off brand for a service business')
}
