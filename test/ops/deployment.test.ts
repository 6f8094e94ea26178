/**
 * Deployment: ops/compose.yaml must start (its service's environment passes the service's
 * own start-up validation: loadConfig, then the service-key rule serve applies) and the Dockerfile must build
 * a small non-root image that Docker can health-check. Docker cannot run here, so the files are read and
 * checked for what matters: the compose file as Compose would interpolate it, the Dockerfile's instructions.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { parse } from 'yaml'
import { generateServiceKeyText, resolveServiceKey } from '../../commands/secrets/service-key.js'
import { loadConfig } from '../../ops/config.js'

const root = new URL('../../', import.meta.url)
const read = (file: string) => fs.readFile(new URL(file, root), 'utf8')

interface ComposeService {
  image?: string
  build?: { context: string; dockerfile?: string }
  environment?: Record<string, string | number | boolean | null>
  depends_on?: Record<string, { condition: string }>
  healthcheck?: unknown
  volumes?: string[]
}

/**
 * Compose's interpolation of `${NAME}`, `${NAME:-default}` and `${NAME:?message}` against the operator's
 * environment (the subset of the syntax this file may use); `$$` is a literal dollar. Throws like
 * `docker compose` does when a required variable is unset or empty.
 */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === '$$') return '$'
      const value = env[name!]
      if (value !== undefined && value !== '') return value
      if (op === ':?') throw new Error(`required variable ${name} is missing a value: ${arg}`)
      return op === ':-' ? arg! : ''
    },
  )
}

/** Every string of a parsed document interpolated (Compose parses the YAML first, then interpolates values). */
function interpolateAll(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, env)
  if (Array.isArray(value)) return value.map((v) => interpolateAll(v, env))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, env)]))
  return value
}

async function composeFile(
  env: Record<string, string>,
): Promise<{ services: Record<string, ComposeService>; volumes?: Record<string, unknown> }> {
  return interpolateAll(parse(await read('ops/compose.yaml')), env) as { services: Record<string, ComposeService> }
}

/** What serve checks before it opens anything: the settings, then that a service key exists where it must. */
async function serviceStartsWith(environment: Record<string, unknown>): Promise<void> {
  const env = Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, v === null ? '' : String(v)]))
  const config = loadConfig(env)
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-compose-'))
  try {
    await resolveServiceKey({ given: config.webhooks.serviceKey, dataDir, databaseUrl: config.databaseUrl })
  } finally {
    await fs.rm(dataDir, { recursive: true, force: true })
  }
}

t.test('compose: the service container passes the service’s own start-up validation', async (t) => {
  // The operator's one-time step the README documents: a key in ops/.env, which Compose reads.
  const compose = await composeFile({ SERVICE_ENCRYPTION_KEY: generateServiceKeyText() })
  const service = compose.services.service
  t.ok(service, 'a service named service')
  const environment = service!.environment ?? {}
  await t.resolves(serviceStartsWith(environment), 'loadConfig and the service-key rule accept the environment')
  const config = loadConfig(Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])))
  t.equal(config.host, '0.0.0.0', 'listens beyond the container’s loopback')
  t.match(config.databaseUrl, /@postgres:5432\//, 'PostgreSQL is the compose service')
  t.match(config.eventStoreUrl, /^esdb:\/\/eventstore:2113/, 'EventStoreDB is the compose service')
  t.ok(config.webhooks.serviceKey, 'a service key is given (required with DATABASE_URL)')
  t.ok(config.baseUrlGiven, 'BASE_URL is given, so no absolute URL comes from a Host header')
  // The service is the image this repository builds, not a node image that installs at every start.
  t.same(service!.build, { context: '..', dockerfile: 'Dockerfile' }, 'built from the Dockerfile at the root')
  t.equal(service!.image, undefined)
  t.notOk(
    (service!.volumes ?? []).some((v) => v.startsWith('..:')),
    'the repository is not mounted over the image',
  )
  for (const dependency of ['postgres', 'eventstore']) {
    t.ok(compose.services[dependency], `${dependency} is defined`)
    t.equal(service!.depends_on?.[dependency]?.condition, 'service_healthy', `waits for ${dependency} to be healthy`)
  }
})

t.test('compose: without a service key Compose refuses to start, naming the variable', async (t) => {
  await t.rejects(composeFile({}), /SERVICE_ENCRYPTION_KEY/)
})

/** The Dockerfile's instructions, continuation lines joined, comments dropped, grouped by stage. */
async function dockerfileStages(): Promise<{ name: string; from: string; instructions: string[] }[]> {
  const lines = (await read('Dockerfile'))
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
  const stages: { name: string; from: string; instructions: string[] }[] = []
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line)
    if (from) stages.push({ from: from[1]!, name: from[2] ?? '', instructions: [] })
    else stages.at(-1)?.instructions.push(line)
  }
  return stages
}

t.test('Dockerfile: multi-stage, production dependencies only, non-root, health-checked', async (t) => {
  const stages = await dockerfileStages().catch(() => [])
  t.ok(stages.length >= 2, `at least two stages (${stages.map((s) => s.name).join(', ')})`)
  const runtime = stages.at(-1)
  if (!runtime) return void t.fail('no stage')
  const all = stages.flatMap((s) => s.instructions)
  t.ok(
    all.some((i) => /^RUN\s.*\bnpm ci\b.*--omit=dev\b/.test(i)),
    'npm ci --omit=dev installs the dependencies',
  )
  t.match(runtime.from, /^node:20\b/, 'the runtime is Node 20 (package.json engines)')
  t.ok(
    runtime.instructions.some((i) => /^COPY\s+--from=\S+\s+.*node_modules/.test(i)),
    'the runtime copies node_modules from an earlier stage',
  )
  const users = runtime.instructions.filter((i) => /^USER\s/.test(i))
  t.equal(users.length > 0, true, 'USER is set')
  t.notMatch(users.at(-1) ?? '', /^USER\s+(root|0)(:|\s|$)/, 'the last USER is not root')
  const health = runtime.instructions.find((i) => /^HEALTHCHECK\s/.test(i)) ?? ''
  t.match(health, /\/api\/v1\/health/, 'HEALTHCHECK asks the health route')
  t.match(runtime.instructions.find((i) => /^CMD\s/.test(i)) ?? '', /ops\/cli\.ts.*serve/, 'CMD serves')
  t.ok(
    runtime.instructions.some((i) => /^ENV\s.*HOST=0\.0\.0\.0/.test(i)),
    'HOST=0.0.0.0 in the image',
  )
  const ignore = (await read('.dockerignore').catch(() => '')).split('\n').map((l) => l.trim())
  for (const entry of ['node_modules', '.git', '.data', 'ops/.env'])
    t.ok(ignore.includes(entry), `.dockerignore keeps ${entry} out of the build context`)
})

t.test('the image’s dependencies are enough: the CLI loads without any devDependency', async (t) => {
  // Every module `serve` needs is imported statically by ops/cli.ts, so loading it (help exits at once)
  // resolves them all; the hook makes a devDependency import fail as it would in the image.
  const result = spawnSync(
    process.execPath,
    ['--import', './test/support/production-dependencies-only.mjs', '--import', 'tsx', 'ops/cli.ts', 'help'],
    {
      cwd: fileURLToPath(root),
      encoding: 'utf8',
      timeout: 60_000,
    },
  )
  t.equal(result.status, 0, `exits 0 (stderr: ${result.stderr.slice(0, 400)})`)
  t.match(result.stdout, /RankRelay operations/)
})
