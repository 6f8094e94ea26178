import { z } from 'zod'

/**
 * The answer engines. claude, openai and gemini are asked by the built-in server-API agent through their
 * official SDKs; chatgpt-web is the ChatGPT web UI, answered only by operator agents (devices).
 * `chatgpt` is accepted as the spec's default question engine and means chatgpt-web wherever a run is made.
 */
export const ENGINES = ['claude', 'openai', 'gemini', 'chatgpt-web'] as const
export type Engine = (typeof ENGINES)[number]

/** Engines the server-API agent answers itself (an API key per engine enables it). */
export const SERVER_ENGINES = ['claude', 'openai', 'gemini'] as const satisfies readonly Engine[]

/** A stored engine name (canonical already) as an Engine; read models keep them as text. */
export function isEngine(name: string): name is Engine {
  return (ENGINES as readonly string[]).includes(name)
}

const ALIASES: Readonly<Record<string, Engine>> = { chatgpt: 'chatgpt-web' }

/** The canonical engine for a name given by a caller, or undefined when it is not supported. */
export function canonicalEngine(name: string): Engine | undefined {
  const key = name.trim().toLowerCase()
  if ((ENGINES as readonly string[]).includes(key)) return key as Engine
  return ALIASES[key]
}

/** An engine name as an input: trimmed, lower-cased, aliases resolved; anything else is refused with a named list. */
export const EngineInput = z.string().transform((name, ctx): Engine => {
  const engine = canonicalEngine(name)
  if (!engine) {
    ctx.addIssue({
      code: 'custom',
      message: `unsupported engine "${name}"; supported: ${ENGINES.join(', ')} (chatgpt means chatgpt-web)`,
      // The error code the API answers with instead of the generic validation_failed (read-api/routes/rpc.ts).
      params: { code: 'aeo_engine_unsupported' },
    })
    return z.NEVER
  }
  return engine
})

/** An engine as stored in events (already canonical). */
export const EngineValue = z.enum(ENGINES)
