/**
 * The ops CLI's surface without a running service: help, usage errors (exit 2) and configuration errors
 * (exit 1), each from the real `tsx ops/cli.ts` process; what a command attaches to, said on stderr, and its
 * refusal to create a store (a new shell without DATA_DIR) unless --init is given.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { createTestDatabase } from '../support/database.js'
import { sandbox } from './spawn.js'

const COMMANDS = ['serve', 'rebuild', 'replay', 'create-platform-key', 'migrate', 'create-user', 'reset-password']

t.test('help lists every command, however it is asked for', async (t) => {
  const box = await sandbox(t)
  const asked: [string, string[]][] = [
    ['help', ['help']],
    ['--help', ['--help']],
    ['no command', []],
  ]
  const results = await Promise.all(asked.map(([, args]) => box.run(args)))
  for (const [i, [label]] of asked.entries()) {
    const result = results[i]!
    t.equal(result.code, 0, `${label}: exits 0`)
    t.match(result.stdout, /^RankRelay operations/, `${label}: prints the help on stdout`)
    for (const command of COMMANDS) t.match(result.stdout, new RegExp(`^ {2}${command}\\b`, 'm'), `${label}: lists ${command}`)
    t.match(result.stdout, /replay --org <id> \[--from <pos>\]/, `${label}: shows replay's options`)
    t.match(result.stdout, /PORT.*HOST.*BASE_URL.*DATA_DIR.*DATABASE_URL/s, `${label}: lists the settings`)
    t.equal(result.stderr, '', `${label}: nothing on stderr`)
  }
  // Help needs no database: nothing was created in DATA_DIR.
  t.same(await fs.readdir(box.dataDir), [], 'help touches no data directory')
})

t.test('usage errors exit 2 with a message and the help, before touching the data directory', async (t) => {
  const box = await sandbox(t)
  // Each run costs a tsx start (a second or two of CPU), so these are few and run side by side.
  const [unknown, orgWithoutValue] = await Promise.all([box.run(['frobnicate']), box.run(['replay', '--org'])])
  t.equal(unknown.code, 2, 'unknown command: exit 2')
  t.match(unknown.stderr, /Unknown command "frobnicate"/, 'unknown command: named on stderr')
  t.match(unknown.stderr, /Commands:/, 'unknown command: the help follows')
  t.equal(unknown.stdout, '', 'unknown command: nothing on stdout')

  t.equal(orgWithoutValue.code, 2, 'replay --org with no value: exit 2')
  t.match(orgWithoutValue.stderr, /--org/, 'replay --org with no value: names the option')
  t.equal(orgWithoutValue.stdout, '', 'replay --org with no value: nothing on stdout')
  t.same(await fs.readdir(box.dataDir), [], 'no usage error started a database')
})

t.test('invalid configuration exits 1 naming the variable, before touching the data directory', async (t) => {
  const box = await sandbox(t)
  const cases: [string, Record<string, string>, string[], RegExp][] = [
    ['PORT=abc', { PORT: 'abc' }, ['serve'], /^ {2}PORT: /m],
    ['PLATFORM_KEY=bad', { PLATFORM_KEY: 'bad' }, ['serve'], /PLATFORM_KEY: expected an rrk_ key/],
  ]
  const results = await Promise.all(cases.map(([, env, args]) => box.run(args, env)))
  for (const [i, [label, , , pattern]] of cases.entries()) {
    const result = results[i]!
    t.equal(result.code, 1, `${label}: exit 1`)
    t.match(result.stderr, /^Invalid configuration:/, `${label}: says the configuration is invalid`)
    t.match(result.stderr, pattern, `${label}: names the variable`)
    t.notMatch(result.stderr, /\n\s+at /, `${label}: a message, not a stack trace`)
    t.equal(result.stdout, '', `${label}: nothing on stdout`)
  }
  t.notMatch(results[0]!.stderr, /PLATFORM_KEY/, 'only the bad variable is named')
  t.same(await fs.readdir(box.dataDir), [], 'no configuration error started a database')
  t.notOk(await fs.stat(path.join(box.dataDir, 'owner.json')).catch(() => null), 'no owner file')
})

/** The password in a connection URL, as a person would type it. */
const passwordOf = (url: string) => decodeURIComponent(new URL(url).password)

t.test('without a store an ops command refuses to create one: it names where it looked and exits 1', async (t) => {
  const box = await sandbox(t)
  // A new shell without DATA_DIR: the default points at a directory that holds nothing.
  const fresh = path.join(box.dataDir, 'fresh')
  const commands = [
    ['writes', 'status'],
    ['create-platform-key'],
    ['migrate'],
    ['create-user', '--org', '1', '--email', 'owner@example.com'],
  ]
  const results = await Promise.all(commands.map((args) => box.run(args, { DATA_DIR: fresh })))
  for (const [i, args] of commands.entries()) {
    const result = results[i]!
    const label = args.join(' ')
    t.equal(result.code, 1, `${label}: exit 1`)
    t.match(result.stderr, `DATA_DIR=${fresh}`, `${label}: names the data directory it would use`)
    t.match(result.stderr, /holds no RankRelay store/, `${label}: says there is no store`)
    t.match(result.stderr, /--init/, `${label}: says how to create one on purpose`)
    t.notMatch(result.stderr, /\n\s+at /, `${label}: a message, not a stack trace`)
    t.equal(result.stdout, '', `${label}: nothing on stdout`)
  }
  t.notOk(await fs.stat(fresh).catch(() => null), 'no data directory was created')
  t.same(await fs.readdir(box.dataDir), [], 'nothing at all')
})

t.test('--init creates the store; afterwards the command attaches to it without --init', async (t) => {
  const box = await sandbox(t)
  const created = await box.run(['writes', 'status', '--init'])
  t.equal(created.code, 0, `writes status --init exits 0: ${created.stderr}`)
  t.match(created.stdout, /^Writes are on/, 'and does its work')
  t.match(
    created.stderr,
    `writes status: attached to DATA_DIR=${box.dataDir} (embedded PostgreSQL, created by --init)`,
    'it says where, and that it created the store',
  )
  const again = await box.run(['writes', 'status'])
  t.equal(again.code, 0, `then writes status exits 0: ${again.stderr}`)
  t.match(again.stderr, `writes status: attached to DATA_DIR=${box.dataDir} (embedded PostgreSQL, started for this command)`)
  t.notMatch(again.stderr, /created/, 'nothing created the second time')
})

t.test('DATABASE_URL: the host and database are named, never the password; an empty database is not set up without --init', async (t) => {
  const box = await sandbox(t)
  const migrated = await createTestDatabase(t)
  const server = process.env.RR_TEST_SERVER_URL!
  const emptyName = `ops_empty_${process.pid}`
  const admin = new pg.Client({ connectionString: server })
  await admin.connect()
  await admin.query(`create database ${emptyName}`)
  t.teardown(async () => {
    await admin.query(`drop database if exists ${emptyName} with (force)`).catch(() => {})
    await admin.end()
  })
  const emptyUrl = new URL(server)
  emptyUrl.pathname = `/${emptyName}`

  const [empty, attached] = await Promise.all([
    box.run(['writes', 'status'], { DATABASE_URL: emptyUrl.toString() }),
    box.run(['writes', 'status'], { DATABASE_URL: migrated.url }),
  ])
  const shown = (url: string) => {
    const u = new URL(url)
    return `DATABASE_URL=postgres://${u.username}:***@${u.host}${u.pathname}`
  }
  t.equal(empty.code, 1, `an empty database: exit 1 (${empty.stderr})`)
  t.match(empty.stderr, shown(emptyUrl.toString()), 'names the host and database')
  t.match(empty.stderr, /holds no RankRelay store.*--init/s, 'refuses to set it up, and says how to on purpose')
  const emptyClient = new pg.Client({ connectionString: emptyUrl.toString() })
  await emptyClient.connect()
  const tables = await emptyClient.query(`select tablename from pg_tables where schemaname not in ('pg_catalog', 'information_schema')`)
  await emptyClient.end()
  t.same(tables.rows, [], 'the empty database stays empty')

  t.equal(attached.code, 0, `a RankRelay database: exit 0 (${attached.stderr})`)
  t.match(attached.stderr, `writes status: attached to ${shown(migrated.url)}`, 'names the host and database it attached to')
  for (const result of [empty, attached]) t.notOk(result.stderr.includes(passwordOf(server)), 'the password is never printed')
})
