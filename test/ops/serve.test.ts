/**
 * `npm start` (tsx ops/cli.ts serve) as a real process on an empty DATA_DIR: the first start mints and prints
 * a platform key once, a second serve on the same directory is refused while the first keeps serving, the
 * data survives a restart, and a server killed with SIGKILL (no clean shutdown: a stale owner file and an
 * orphaned PostgreSQL) is followed by a serve that starts on intact data. The todo tests after it pin
 * product bugs found on the way (run them with RR_RUN_KNOWN_BUGS=1, see known-bug.ts).
 */
import fs from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { freePort, isAlive } from '../../ops/embedded-postgres.js'
import {
  call,
  gone,
  health,
  postmasterPid,
  readOwner,
  rpc,
  sandbox,
  serverPid,
  sleep,
  startScriptCommand,
  waitUntil,
  type Served,
} from './spawn.js'

const KEY_TOKEN = /rrk_[A-Za-z0-9_-]{20,}/g

t.test('serve on an empty DATA_DIR, again after a SIGTERM, and again after a SIGKILL', async (t) => {
  const box = await sandbox(t)
  let first: Served
  let key = ''
  let orgId = 0
  let clientId = 0
  let firstClient: unknown
  let restarted: Served

  await t.test('the first start prints the URL and a platform key, once', async (t) => {
    first = await box.serve()
    const out = first.stdout()
    t.equal(first.baseUrl, `http://127.0.0.1:${first.port}`, 'the base URL is HOST:PORT')
    t.match(out, /^RankRelay is serving on http:\/\/127\.0\.0\.1:\d+ \(role all, event store postgres, data .+\)$/m)
    t.match(out, new RegExp(`^Health: ${first.baseUrl}/api/v1/health$`, 'm'))
    t.match(out, /First start: a platform key was minted/)
    t.ok(first.mintedKey, 'a key line was printed')
    key = first.mintedKey!
    t.match(key, /^rrk_[A-Za-z0-9_-]{20,}$/)
    t.equal(out.split('\n').filter((line) => line.trim() === key).length, 1, 'the key is printed on a line of its own exactly once')
    t.same([...new Set(out.match(KEY_TOKEN))], [key], 'no other key appears (the curl example uses the same one)')
    t.notOk(first.stderr().includes(key), 'the key never reaches the logs')

    const owner = readOwner(box.dataDir)
    t.ok(owner, 'owner.json names the running process')
    t.ok(owner && isAlive(owner.pid), 'the owner pid is alive')
    t.type(owner?.port, 'number', 'the owner file carries the PostgreSQL port for ops commands')
  })

  await t.test('health answers ok and the key works over HTTP', async (t) => {
    const h = await health(first.baseUrl)
    t.equal(h.status, 'ok')
    t.equal(h.event_store, 'postgres')
    t.same(h.counts, { ...h.counts, organizations: 0, clients: 0, api_keys: 1 }, 'only the bootstrap key exists')

    orgId = await call<number>(first.baseUrl, 'create_organization', { name: 'Serve Test Agency' }, key)
    t.ok(Number.isInteger(orgId) && orgId > 0, 'create_organization returns an integer id')
    const added = await rpc(
      first.baseUrl,
      'add_client',
      {
        org_id: orgId,
        client: { name: 'Austin Plumbing', website_url: 'https://austin-plumbing.example.com', services: ['Drain cleaning'] },
      },
      key,
    )
    t.equal(added.status, 200)
    t.equal(added.headers.get('x-read-your-writes'), 'reached', 'the write waited for the projections')
    t.ok(added.headers.get('x-service-api-version'), 'X-Service-API-Version is set')
    clientId = added.body.result
    t.ok(Number.isInteger(clientId) && clientId > 0, 'add_client returns an integer id')
    firstClient = await call(first.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key)
    t.match(firstClient, { id: clientId, org_id: orgId, name: 'Austin Plumbing', website_url: 'https://austin-plumbing.example.com' })

    const wrongKey = await rpc(first.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, `rrk_${'x'.repeat(40)}`)
    t.equal(wrongKey.status, 401, 'an unknown key is refused')
  })

  await t.test('a second serve on the same DATA_DIR is refused while the first keeps serving', async (t) => {
    const ownerBefore = readOwner(box.dataDir)
    const second = await box.run(['serve'], { PORT: String(await freePort()) })
    t.not(second.code, 0, 'the second serve exits non-zero')
    t.equal(second.code, 1)
    t.match(second.stderr, /already running/, 'it says the service is already running')
    t.match(second.stderr, box.dataDir, 'it names the data directory')
    t.match(second.stderr, `pid ${ownerBefore?.pid}`, 'it names the running process')
    t.notMatch(second.stderr, /\n\s+at /, 'a message, not a stack trace')
    t.equal(second.stdout, '', 'it serves nothing')
    t.same(readOwner(box.dataDir), ownerBefore, 'the owner file is untouched')

    t.equal((await health(first.baseUrl, 5000)).status, 'ok', 'the first still answers health')
    t.same(await call(first.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key), firstClient, 'and reads')
    const more = await call<number>(
      first.baseUrl,
      'add_client',
      { org_id: orgId, client: { name: 'Still Serving', website_url: 'https://still.example.com' } },
      key,
    )
    t.match(await call(first.baseUrl, 'get_client', { org_id: orgId, client_id: more }, key), { name: 'Still Serving' }, 'and writes')
    await call(first.baseUrl, 'set_client_status', { org_id: orgId, client_id: more, status: 'deleted' }, key)
  })

  await t.test('SIGTERM stops the service and its PostgreSQL', async (t) => {
    const pgPid = postmasterPid(box.dataDir)
    t.ok(pgPid && isAlive(pgPid), 'PostgreSQL runs while serving')
    const exit = await first.stop('SIGTERM')
    t.not(exit.signal, 'SIGKILL', 'it stopped within the grace period, without SIGKILL')
    t.ok(await gone(pgPid), 'its PostgreSQL stops too')
    t.equal(postmasterPid(box.dataDir), null, 'postmaster.pid is gone (a clean PostgreSQL shutdown)')
    await t.rejects(fetch(`${first.baseUrl}/api/v1/health`, { signal: AbortSignal.timeout(2000) }), 'the port is closed')

    await t.test('and shuts down in its own order: exit code 0 and the owner file removed', async (t) => {
      const log = first
        .stderr()
        .split('\n')
        .filter((line) => !line.includes('idle database client error'))
        .join('\n')
        .slice(0, 2000)
      t.equal(exit.code, 0, `serve exits 0 after its own orderly stop (exited with code ${exit.code}, signal ${exit.signal}): ${log}`)
      t.notOk(await fs.stat(path.join(box.dataDir, 'owner.json')).catch(() => null), 'owner.json is removed')
    })
    await t.test('and logs no database errors while shutting down', async (t) => {
      const cut = first.stderr().includes('terminating connection due to administrator command')
      t.notOk(cut, 'no "terminating connection" errors logged on a clean stop')
    })
  })

  await t.test('a restart on the same DATA_DIR prints no key and keeps the data', async (t) => {
    const again = await box.serve()
    const out = again.stdout()
    t.match(out, /RankRelay is serving on /)
    t.equal(again.mintedKey, null, 'no key line')
    t.notMatch(out, /rrk_/, 'no key anywhere in the output')
    t.notMatch(out, /First start/)
    t.same(
      await call(again.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key),
      firstClient,
      'the first key still works and the client is there',
    )
    t.match(await call(again.baseUrl, 'get_organization', { org_id: orgId }, key), { id: orgId, name: 'Serve Test Agency' })
    const h = await health(again.baseUrl)
    t.match(h.counts, { organizations: 1, clients: 2, api_keys: 1 }, 'nothing was lost or minted twice')
    const deleted = await call<unknown[]>(again.baseUrl, 'get_deleted_clients', { org_id: orgId }, key)
    t.equal(deleted.length, 1, 'the status change made before the restart is there too')

    const later = await call<number>(
      again.baseUrl,
      'add_client',
      { org_id: orgId, client: { name: 'After Restart', website_url: 'https://after.example.com' } },
      key,
    )
    t.ok(later > clientId, 'ids keep counting up after the restart')
    t.match(await call(again.baseUrl, 'get_client', { org_id: orgId, client_id: later }, key), { name: 'After Restart' })
    restarted = again
  })

  await t.test('after a SIGKILL (stale owner file, orphaned PostgreSQL) the next serve starts on intact data', async (t) => {
    const server = restarted
    const clientsBefore = await call<unknown[]>(server.baseUrl, 'get_all_clients', { org_id: orgId, include_deleted: true }, key)
    const owner = readOwner(box.dataDir)
    const orphan = postmasterPid(box.dataDir)
    t.ok(owner && owner.pid !== server.child.pid && owner.pid === serverPid(server.child), 'the owner is the server process tsx runs')
    t.ok(orphan && isAlive(orphan), 'PostgreSQL runs')

    // No chance to clean up: kill the server and its tsx parent, not their process group, so PostgreSQL stays.
    process.kill(owner!.pid, 'SIGKILL')
    process.kill(server.child.pid!, 'SIGKILL')
    await server.exited
    await waitUntil('the server process to die', 10_000, () => (isAlive(owner!.pid) ? undefined : true))
    t.same(readOwner(box.dataDir), owner, 'the owner file is stale: it still names the dead server')
    t.ok(isAlive(orphan!), 'PostgreSQL is orphaned, still running on the data directory')

    const recovered = await box.serve()
    t.equal(recovered.mintedKey, null, 'no new key: the platform was bootstrapped before the crash')
    t.notMatch(recovered.stdout(), /rrk_/)
    await waitUntil('the orphaned PostgreSQL to stop', 10_000, () => (isAlive(orphan!) ? undefined : true))
    t.pass('the orphaned PostgreSQL was stopped')
    const newOwner = readOwner(box.dataDir)
    t.ok(newOwner && newOwner.pid !== owner!.pid && isAlive(newOwner.pid), 'the new server owns the data directory')
    t.not(postmasterPid(box.dataDir), orphan, 'a new PostgreSQL serves it')

    t.same(
      await call(recovered.baseUrl, 'get_all_clients', { org_id: orgId, include_deleted: true }, key),
      clientsBefore,
      'every client is intact, read with the first key',
    )
    t.same(await call(recovered.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key), firstClient)
    t.match((await health(recovered.baseUrl)).counts, { organizations: 1, clients: 3, api_keys: 1 })
    const next = await call<number>(
      recovered.baseUrl,
      'add_client',
      { org_id: orgId, client: { name: 'After Crash', website_url: 'https://after-crash.example.com' } },
      key,
    )
    t.match(
      await call(recovered.baseUrl, 'get_client', { org_id: orgId, client_id: next }, key),
      { name: 'After Crash' },
      'writes work again',
    )

    const pgPid = postmasterPid(box.dataDir)
    await recovered.stop('SIGTERM')
    t.ok(await gone(pgPid), 'its PostgreSQL stops on SIGTERM')
  })
})

t.test('PORT=0 prints the URL of the port it actually listens on', async (t) => {
  const box = await sandbox(t)
  const served = await box.serve({ PORT: '0' })
  const port = Number(new URL(served.baseUrl).port)
  t.not(port, 0, `the printed URL names a real port: ${served.baseUrl}`)
  t.equal((await health(served.baseUrl, 5000)).status, 'ok', 'and health answers there')
  await served.stop()
})

t.test('SIGTERM to the process the start script runs stops the server cleanly even when it is slow to get CPU', async (t) => {
  const box = await sandbox(t)
  const command = startScriptCommand()
  const served = await box.serve({}, { command })
  const server = readOwner(box.dataDir)?.pid
  const pgPid = postmasterPid(box.dataDir)
  t.ok(server && pgPid, `the server and its PostgreSQL run (${command.join(' ')})`)
  process.kill(server!, 'SIGSTOP') // the server gets no CPU for a moment, as on a busy machine
  process.kill(served.child.pid!, 'SIGTERM') // what a process manager sends to the process it started
  await sleep(300)
  try {
    process.kill(server!, 'SIGCONT')
  } catch {
    // already gone
  }
  await Promise.race([served.exited, sleep(15_000)])
  t.ok(await gone(pgPid, 5000), 'its PostgreSQL was stopped, not orphaned')
  t.equal(postmasterPid(box.dataDir), null, 'postmaster.pid is gone')
})

t.test('the service survives PostgreSQL ending its connections (a restart, pg_terminate_backend, a network blip)', async (t) => {
  const box = await sandbox(t)
  const served = await box.serve()
  const key = served.mintedKey!
  const orgId = await call<number>(served.baseUrl, 'create_organization', { name: 'Blip Inc' }, key)
  const owner = readOwner(box.dataDir)!
  const { password } = JSON.parse(await fs.readFile(path.join(box.dataDir, 'credentials.json'), 'utf8')) as { password: string }
  const admin = new pg.Client({ connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${owner.port}/postgres` })
  await admin.connect()
  try {
    const { rowCount } = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = 'rankrelay' and pid <> pg_backend_pid()`,
    )
    t.ok(rowCount, 'the service’s sessions were ended')
  } finally {
    await admin.end()
  }
  await sleep(2000)
  const crash = served
    .stderr()
    .split('\n')
    .filter((line) => !line.includes('idle database client error'))
    .join('\n')
    .slice(0, 1500)
  t.ok(
    served.child.exitCode === null && served.child.signalCode === null,
    `the service is still running (exit ${served.child.exitCode}): ${crash}`,
  )
  t.equal((await health(served.baseUrl, 10_000)).status, 'ok', 'health answers')
  const clientId = await call<number>(
    served.baseUrl,
    'add_client',
    { org_id: orgId, client: { name: 'After Blip', website_url: 'https://blip.example.com' } },
    key,
  )
  t.match(
    await call(served.baseUrl, 'get_client', { org_id: orgId, client_id: clientId }, key),
    { name: 'After Blip' },
    'writes are projected again',
  )
  await served.stop()
})
