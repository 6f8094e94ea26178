import type { Processor, ProcessorDeps } from '../runtime.js'
import { schedulerProcessors } from './scheduler.js'
import { serverAgentProcessors } from './server-agent.js'

/** The AI Visibility processors: the scheduler and the built-in server-API agent. */
export function aeoProcessors(deps: ProcessorDeps): Processor[] {
  return [...schedulerProcessors(deps), ...serverAgentProcessors(deps)]
}
