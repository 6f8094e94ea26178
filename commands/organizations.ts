import { NotFoundError } from '../domain/shared/errors.js'
import type { Branding } from '../domain/organizations/branding.js'
import { organization, organizationStream, type BrandingChange } from '../domain/organizations/organization.js'
import { handleCommand, type CommandContext, type WriteDeps } from './command-handler.js'
import type { Position } from './event-store/port.js'

export async function createOrganization(
  deps: WriteDeps,
  context: CommandContext,
  input: { name: string },
): Promise<{ orgId: number; position: Position | null }> {
  const orgId = await deps.ids.next('organization')
  const outcome = await handleCommand(deps, {
    aggregate: organization,
    id: orgId,
    command: { type: 'CreateOrganization', org_id: orgId, name: input.name },
    context,
    orgId,
  })
  return { orgId, position: outcome.position }
}

/** Reads the organization's stream: the log, not a read model, is the truth for a write's precondition. */
export async function assertOrganizationExists(deps: WriteDeps, orgId: number): Promise<void> {
  for await (const _event of deps.store.readStream(organizationStream(orgId), { maxCount: 1 })) return
  throw new NotFoundError('organization', orgId)
}

/**
 * Sets the white-label branding reports carry (only the given fields; null clears one). Returns the
 * branding after the change, with the organization's name.
 */
export async function updateOrganizationBranding(
  deps: WriteDeps,
  context: CommandContext,
  input: { orgId: number; changes: BrandingChange },
): Promise<{ name: string; branding: Branding; position: Position | null }> {
  const outcome = await handleCommand(deps, {
    aggregate: organization,
    id: input.orgId,
    command: { type: 'UpdateBranding', org_id: input.orgId, changes: input.changes },
    context,
    orgId: input.orgId,
  })
  return { name: outcome.state.name, branding: outcome.state.branding, position: outcome.position }
}
