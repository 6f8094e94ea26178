import { z } from 'zod'
import { EngineInput, ENGINES } from '../../../domain/aeo/engines.js'
import { Prompt } from '../../../domain/aeo/questions/events.js'
import { promptKey } from '../../../domain/aeo/prompt.js'

/* AI Visibility parameter values that several methods take, each described once. */

export const Engine = EngineInput.describe(`An answer engine: ${ENGINES.join(', ')} (chatgpt means chatgpt-web)`)

/** A prompt must carry words: "???" normalizes to nothing and could never be told apart from another. */
export const PromptInput = Prompt.refine((prompt) => promptKey(prompt) !== '', 'a question needs letters or digits').describe(
  'The question as a buyer would ask an answer engine, 3 to 500 characters (e.g. "Who is the best plumber in Austin, TX?")',
)

/** Agent ids become part of a stream name: letters, digits and `_ . : @ -`. */
export const AgentId = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_.:@-]+$/, 'letters, digits and _ . : @ - only')
  .describe('The capture agent, an id it chooses: 1 to 200 letters, digits and _ . : @ - (e.g. laptop-7:chrome)')
