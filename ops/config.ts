import net from 'node:net'
import path from 'node:path'
import { z } from 'zod'
import { API_KEY_PATTERN } from '../commands/api-keys.js'

/**
 * Every setting, from the environment, validated once at start. A bad value stops the service with a
 * message naming the variable, rather than failing later.
 */
const Env = z.object({
  PORT: z.string().regex(/^\d{1,5}$/, 'expected a port number 0-65535').transform(Number).pipe(z.number().max(65535)).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./.data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'expected postgres://user:password@host:port/database')
    .optional(),
  EVENTSTORE_URL: z
    .string()
    .regex(/^(esdb|esdb\+discover):\/\//, 'expected esdb://host:2113?tls=false')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  PLATFORM_KEY: z.string().regex(API_KEY_PATTERN, 'expected an rrk_ key: rrk_ followed by 20 or more letters, digits, _ or -').optional(),
  READ_YOUR_WRITES_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(100 * 1024 * 1024).default(1024 * 1024),
})

export interface Config {
  readonly port: number
  readonly host: string
  readonly baseUrl: string
  /** False when baseUrl was derived from HOST and PORT (serve then uses the port it really bound). */
  readonly baseUrlGiven: boolean
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  readonly eventStoreUrl: string | undefined
  readonly logLevel: z.infer<typeof Env>['LOG_LEVEL']
  readonly platformKey: string | undefined
  readonly readYourWritesTimeoutMs: number
  readonly bodyLimit: number
}

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as shells and compose files often produce them.
  const present = Object.fromEntries(
    Object.entries(env)
      .map(([key, value]) => [key, value?.trim()] as const)
      .filter(([, value]) => value !== undefined && value !== ''),
  )
  const parsed = Env.safeParse(present)
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')
    throw new ConfigError(`Invalid configuration:\n  ${problems}`)
  }
  const e = parsed.data
  const listensEverywhere = e.HOST === '0.0.0.0' || e.HOST === '::'
  const shownHost = listensEverywhere ? '127.0.0.1' : net.isIPv6(e.HOST) ? `[${e.HOST}]` : e.HOST
  return {
    port: e.PORT,
    baseUrlGiven: e.BASE_URL !== undefined,
    host: e.HOST,
    baseUrl: (e.BASE_URL ?? `http://${shownHost}:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    logLevel: e.LOG_LEVEL,
    platformKey: e.PLATFORM_KEY,
    readYourWritesTimeoutMs: e.READ_YOUR_WRITES_TIMEOUT_MS,
    bodyLimit: e.BODY_LIMIT_BYTES,
  }
}
