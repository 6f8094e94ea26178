/**
 * Shared by the docs-*.test.ts files: an app over a test system's database with a registry of the test's
 * choosing (buildApp takes the registry through its deps), so a test can add or deprecate RPCs.
 */
import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { DEFAULT_AEO_SETTINGS } from '../../commands/aeo/settings.js'
import { buildApp } from '../../read-api/app.js'
import type { PublicDocsSettings } from '../../read-api/docs/context.js'
import { rpc, RpcRegistry, type AnyRpc } from '../../read-api/registry.js'
import { createRegistry } from '../../read-api/rpc/index.js'
import type { TestSystem } from '../support/system.js'

interface Teardown {
  teardown(fn: () => unknown): void
}

/** The service's own RPCs plus `extra`. */
export function registryWith(...extra: AnyRpc[]): RpcRegistry {
  return new RpcRegistry([
    ...createRegistry()
      .all()
      .map((r) => r.definition),
    ...extra,
  ])
}

export async function appWith(
  t: Teardown,
  ts: TestSystem,
  registry: RpcRegistry,
  publicDocs?: PublicDocsSettings,
): Promise<FastifyInstance> {
  const app = await buildApp({
    logger: ts.system.log,
    bodyLimit: 1024 * 1024,
    registry,
    read: ts.system.read,
    write: ts.system.write,
    watermark: ts.system.watermark,
    readYourWritesTimeoutMs: 5000,
    eventStoreKind: 'postgres',
    db: ts.system.database.db,
    settings: { aeo: DEFAULT_AEO_SETTINGS, rateLimits: { defaultPerMinute: 1_000_000 } },
    ...(publicDocs ? { publicDocs } : {}),
  })
  t.teardown(() => app.close())
  await app.ready()
  return app
}

/** A small read RPC for registry-driven tests: echoes a parameter (described, so the docs show it). */
export function echoRpc(name: string, extra: Partial<AnyRpc> = {}): AnyRpc {
  return rpc({
    name,
    domain: 'testing',
    access: 'read',
    orgScoped: false,
    summary: `Echo for tests (${name}).`,
    example: { params: { word: 'hello' }, result: { word: 'hello' } },
    params: z.strictObject({ word: z.string().max(50).describe('The word to echo back') }),
    result: z.object({ word: z.string() }),
    handler: async ({ params }) => ({ word: params.word }),
    ...extra,
  }) as AnyRpc
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` })
