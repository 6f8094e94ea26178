import path from 'node:path'
import { parseArgs } from 'node:util'
import { ConfigError, loadConfig } from './config.js'
import { DataDirInUseError } from './data-dir.js'
import { NoStoreError } from './store-target.js'
import type { OpsOptions } from './commands/open.js'
import { migrate } from './commands/migrate.js'
import { createPlatformKey } from './commands/platform-key.js'
import { rebuild } from './commands/rebuild.js'
import { replay } from './commands/replay.js'
import { ROLES, serve, type Role } from './commands/serve.js'
import { WRITES_ACTIONS, writes, type WritesAction } from './commands/writes.js'
import { sandboxCommand } from './commands/sandbox.js'
import { createUserCommand, PeopleCommandError, PeopleUsageError, resetPasswordCommand } from './commands/people.js'

const HELP = `RankRelay operations

Usage: npm start                      serve the API (same as: npm run ops -- serve)
       npm run ops -- <command> [options]

Commands:
  serve [--role all|api|projections|processors]
                                       Run the service: migrations, projections, processors and the HTTP API (role all),
                                       or one role of a split deployment.
  rebuild                              Rebuild every read model from the log into a fresh schema while the
                                       service keeps serving, then swap; prints progress (events/s, ETA).
                                       Side effects (webhooks, jobs) are never re-fired.
  replay --org <id> [--from <pos>]     Print an organization's history as NDJSON (type, data, metadata,
                                       position, stream, revision), after position <pos> when given.
  create-platform-key [--name <name>]  Mint another platform (cross-organization) key; printed once.
  migrate                              Apply pending migrations and create missing read models.
  bench [name…] [--repeat N] [--quick] [--output <file>]
                                       Run the benchmarks (all, or the named scenarios) on a fresh embedded
                                       PostgreSQL; prints a table and writes bench/results.json (or <file>).
  writes on|off|status [--reason <text>]
                                       Switch writes on or off for every API process (off: write RPCs and job
                                       creation answer 503 writes_disabled, reads keep working), or show the switch.
  sandbox reset                        Create the public sandbox (fictional organization, read-only published key),
                                       or replace its data with a fresh fixture; other organizations are untouched.
  create-user --org <id> --email <e> [--role owner|seo_editor|web_builder|viewer] [--password <p>]
                                       Create a member who can sign in at once (the first owner of an organization;
                                       role default owner). Prints, once, the password when generated, the TOTP
                                       secret as an otpauth:// URI and recovery codes. Prefer a generated password:
                                       one given on the command line is visible to other users of the machine.
  reset-password --email <e>           Print a single-use password-reset link (30 minutes) for a member; the
                                       service sends no email itself.
  help                                 This text.

Every command works while the service runs, against the same DATA_DIR or DATABASE_URL, and says on stderr
which store it attached to. Only serve creates a store where there is none; any other command refuses
(exit 1) unless given --init.

Settings (environment): PORT (8080), HOST (127.0.0.1), BASE_URL, DATA_DIR (./.data), DATABASE_URL,
EVENTSTORE_URL, LOG_LEVEL (info), PLATFORM_KEY, READ_YOUR_WRITES_TIMEOUT_MS (5000), BODY_LIMIT_BYTES (1048576),
WRITES_ENABLED (initial value only, true), IDEMPOTENCY_IN_FLIGHT_TIMEOUT_SECONDS (60),
SANDBOX_ENABLED (false), SANDBOX_RESET_INTERVAL_HOURS (24; 0: no scheduled resets),
SERVICE_ENCRYPTION_KEY (generated under DATA_DIR; required with DATABASE_URL), WEBHOOK_ALLOWED_HOSTS,
WEBHOOK_BACKOFF_BASE_MS (60000), SSO_ALLOWED_HOSTS, SSO_PUBLIC_SIGNUP (false), METRICS_TOKEN,
OTEL_EXPORTER_OTLP_ENDPOINT; search providers DATAFORSEO_LOGIN, DATAFORSEO_PASSWORD, SERPAPI_KEY (and
SEARCH_*); site monitoring SITE_ALLOWED_HOSTS, SITE_CRAWL_* and CHROMIUM_PATH (/usr/bin/chromium); WordPress
WORDPRESS_TIMEOUT_MS (15000), WORDPRESS_MAX_RESPONSE_BYTES (10485760), WORDPRESS_MAX_ATTEMPTS (3). Every
setting, with its default: ops/README.md.
`

async function main(argv: string[]): Promise<number> {
  const [command = 'help', ...rest] = argv
  if (command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(HELP)
    return 0
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      role: { type: 'string' },
      org: { type: 'string' },
      from: { type: 'string' },
      name: { type: 'string', default: 'Platform key' },
      help: { type: 'boolean', short: 'h' },
      repeat: { type: 'string', default: '3' },
      quick: { type: 'boolean', default: false },
      output: { type: 'string', default: 'bench/results.json' },
      reason: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      init: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: true,
  })
  if (values.help) {
    process.stdout.write(HELP)
    return 0
  }
  if (command !== 'bench' && command !== 'sandbox' && command !== 'writes' && positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}"`)
  const config = loadConfig()
  const ops: OpsOptions = { init: values.init! }
  switch (command) {
    case 'serve': {
      const role = values.role ?? 'all'
      if (!(ROLES as readonly string[]).includes(role)) throw new UsageError(`--role must be one of ${ROLES.join(', ')}`)
      await serve(config, role as Role)
      return -1 // keeps running
    }
    case 'rebuild':
      await rebuild(config, ops)
      return 0
    case 'replay': {
      const org = Number(values.org)
      if (!values.org || !Number.isInteger(org) || org <= 0) throw new UsageError('replay needs --org <organization id>')
      return replay(config, org, values.from, ops)
    }
    case 'create-platform-key':
      await createPlatformKey(config, values.name!, ops)
      return 0
    case 'migrate':
      await migrate(config, ops)
      return 0
    case 'bench': {
      const repeat = Number(values.repeat)
      if (!Number.isInteger(repeat) || repeat < 1 || repeat > 20) throw new UsageError('--repeat must be 1 to 20')
      // Loaded only here: the bench uses devDependencies (autocannon, emmett), which the Docker image
      // (npm ci --omit=dev) does not have, and a static import would stop every command there.
      const { runBench } = await import('./bench/run.js')
      await runBench({
        names: positionals,
        repeat,
        quick: values.quick!,
        output: path.resolve(values.output!),
        serverUrl: process.env.BENCH_DATABASE_URL,
      })
      return 0
    }
    case 'writes': {
      const [action, ...more] = positionals
      if (!(WRITES_ACTIONS as readonly string[]).includes(action ?? '') || more.length > 0)
        throw new UsageError('writes needs one of: on, off, status')
      if (values.reason !== undefined && action !== 'off') throw new UsageError('--reason goes with writes off')
      await writes(config, action as WritesAction, values.reason, ops)
      return 0
    }
    case 'create-user':
      return createUserCommand(config, { org: values.org, email: values.email, role: values.role, password: values.password }, ops)
    case 'reset-password':
      return resetPasswordCommand(config, values.email, ops)
    case 'sandbox':
      if (positionals.length !== 1) throw new UsageError('sandbox needs one action: sandbox reset')
      return sandboxCommand(config, positionals[0], ops)
    default:
      throw new UsageError(`Unknown command "${command}"`)
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code)
  },
  (error: unknown) => {
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(`${(error as Error).message}\n\n${HELP}`)
      process.exit(2)
    }
    if (error instanceof PeopleUsageError) {
      process.stderr.write(`${error.message}\n\n${HELP}`)
      process.exit(2)
    }
    if (
      error instanceof ConfigError ||
      error instanceof DataDirInUseError ||
      error instanceof NoStoreError ||
      error instanceof PeopleCommandError
    ) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`)
    process.exit(1)
  },
)
