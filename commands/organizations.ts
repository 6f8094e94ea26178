import { NotFoundError } from '../domain/shared/errors.js'
import { organization, organizationStream } from '../domain/organizations/organization.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

export async function createOrganization(
  deps: WriteDeps,
  context: CommandContext,
  input: { name: string },
): Promise<{ orgId: number; position: Position | null }> {
  const orgId = await deps.ids.next('organization')
  const outcome = await handleCommand(
    deps,
    organization,
    organizationStream(orgId),
    { type: 'CreateOrganization', org_id: orgId, name: input.name },
    context,
    () => orgId,
  )
  return { orgId, position: outcome.position }
}

/** Reads the organization's stream: the log, not a read model, is the truth for a write's precondition. */
export async function assertOrganizationExists(deps: WriteDeps, orgId: number): Promise<void> {
  for await (const _event of deps.store.readStream(organizationStream(orgId), { maxCount: 1 })) return
  throw new NotFoundError('organization', orgId)
}
