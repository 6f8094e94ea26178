/**
 * The embedded database: kill -9 of the PostgreSQL the service owns, under four writers. The
 * service answers 503 store_unavailable meanwhile, starts its PostgreSQL again (retrying while it cannot),
 * and recovers (store-outage-support.ts checks the aftermath).
 */
import net from 'node:net'
import t from 'tap'
import { isAlive } from '../../ops/embedded-postgres.js'
import { gone, postmasterPid, readOwner, sandbox, sleep, waitUntil } from './spawn.js'
import { checkAftermath, checkDuringOutage, organization, startWriters } from './store-outage-support.js'

t.test('kill -9 of the embedded PostgreSQL under four writers: 503 meanwhile, restarted, every acknowledged write kept', async (t) => {
  const box = await sandbox(t)
  // A write whose events were appended just before the kill waits for the projections (read-your-writes) and
  // would hold its writer past a short outage; a short wait lets every writer meet the outage while it lasts.
  const served = await box.serve({ LOG_LEVEL: 'info', READ_YOUR_WRITES_TIMEOUT_MS: '500' })
  const key = served.mintedKey!
  const orgId = await organization(served, key)
  const writers = startWriters(served, key, orgId)
  t.teardown(() => writers.stop())
  await waitUntil('some writes', 60_000, () => (writers.acknowledged.length >= 20 ? true : undefined))

  const killed = postmasterPid(box.dataDir)
  t.ok(killed && isAlive(killed), 'the embedded PostgreSQL runs')
  const port = readOwner(box.dataDir)?.port
  t.type(port, 'number', 'owner.json names its port')
  const logFrom = served.stderr().length
  process.kill(killed!, 'SIGKILL')
  // The test holds the server's port for a while, so the outage lasts long enough to be seen (a restart is
  // otherwise quicker than the writers' next query) and the supervisor's retry is exercised: its first
  // attempts cannot bind the port. A connection there is closed at once, as a dying server's would be.
  const blocker = await holdPort(port!)
  t.teardown(() => new Promise((resolve) => blocker.close(resolve)))
  t.ok(await gone(killed), 'the postmaster is dead')

  // The outage lasts (the port held) until a read, health and the writers have all met it.
  await checkDuringOutage(t, served, writers, key, orgId)
  await new Promise((resolve) => blocker.close(resolve))

  const restarted = await waitUntil('a new postmaster', 60_000, () => {
    const pid = postmasterPid(box.dataDir)
    return pid !== null && pid !== killed && isAlive(pid) ? pid : undefined
  })
  t.not(restarted, killed, 'the service started its PostgreSQL again')
  await checkAftermath(t, served, writers, key, orgId, logFrom)
  t.ok(await gone(restarted), 'the restarted PostgreSQL stops with the service')
})

/**
 * Listens on the port a killed server held, once the kernel has released it (a few milliseconds after the
 * kill; the supervisor's first restart waits longer), closing every connection at once.
 */
async function holdPort(port: number): Promise<net.Server> {
  for (let attempt = 0; ; attempt++) {
    const server = net.createServer((socket) => socket.destroy())
    const error = await new Promise<Error | null>((resolve) => {
      server.once('error', resolve)
      server.listen(port, '127.0.0.1', () => resolve(null))
    })
    if (!error) return server
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 100) throw error
    await sleep(2)
  }
}
