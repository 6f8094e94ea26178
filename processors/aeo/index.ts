import type { Processor, ProcessorDeps } from '../runtime.js'
import { recordPrunerProcessors } from './record-pruner.js'
import { schedulerProcessors } from './scheduler.js'
import { serverAgentProcessors } from './server-agent.js'

/** The AI Visibility processors: the scheduler, the built-in server-API agent and the raw-record pruner. */
export function aeoProcessors(deps: ProcessorDeps): Processor[] {
  return [...schedulerProcessors(deps), ...serverAgentProcessors(deps), ...recordPrunerProcessors(deps)]
}
