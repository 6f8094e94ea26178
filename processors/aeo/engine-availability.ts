import type { DecodedEvent } from '../../commands/event-store/decode.js'
import { isEngine } from '../../domain/aeo/engines.js'
import { engineWarnings, type EngineWarning } from '../../domain/aeo/runs/engine-warnings.js'
import { claimedEngines } from '../../projections/aeo/runs/queries.js'
import type { ProcessorDeps } from '../runtime.js'

/**
 * The engines the processors can answer or see answered: the server engines this process has API keys for
 * (its server agent claims them, even before it has checked in) and every engine an agent of the organization
 * or of the platform has claimed with.
 */
export async function answeredEngines(deps: ProcessorDeps, orgId: number | null): Promise<Set<string>> {
  const answered = await claimedEngines(deps.read, orgId)
  for (const engine of Object.keys(deps.aeoProcessors.engines)) answered.add(engine)
  return answered
}

/**
 * On an enrolment (AeoCadenceSet, enabled): logs once, as a warning, the engines of the cadence nothing will
 * answer and why, so an operator reading the log learns what set_aeo_cadence told the caller.
 * Called by the scheduler's subscription, which sees each event once (its checkpoint), so one enrolment
 * is one line. Returns the warnings logged.
 */
export async function warnOfUnansweredEngines(deps: ProcessorDeps, event: DecodedEvent): Promise<EngineWarning[]> {
  if (event.type !== 'AeoCadenceSet' || event.data.enabled !== true) return []
  const orgId = event.metadata.org_id ?? null
  const engines = event.data.engines.filter(isEngine)
  const warnings = engineWarnings(engines, await answeredEngines(deps, orgId))
  if (warnings.length > 0) {
    deps.log.warn(
      { client_id: event.data.client_id, org_id: orgId, warnings },
      `AI Visibility enrolment of client ${event.data.client_id} has engines nothing can answer (${warnings.map((w) => `${w.engine}: ${w.reason}`).join('; ')}); their runs will stay queued`,
    )
  }
  return warnings
}
