/**
 * The ops CLI's surface without a running service: help, usage errors (exit 2) and configuration errors
 * (exit 1), each from the real `tsx ops/cli.ts` process.
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import t from 'tap'
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
