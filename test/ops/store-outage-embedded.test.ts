/**
 * Issue 22 item 14, the embedded database: kill -9 of the PostgreSQL the service owns, under four writers. The
 * service answers 503 store_unavailable meanwhile, starts its PostgreSQL again, and recovers
 * (store-outage-support.ts checks the aftermath).
 */
import t from 'tap'
import { isAlive } from '../../ops/embedded-postgres.js'
import { gone, postmasterPid, sandbox, waitUntil } from './spawn.js'
import { checkAftermath, organization, startWriters } from './store-outage-support.js'

t.test('kill -9 of the embedded PostgreSQL under four writers: 503 meanwhile, restarted, every acknowledged write kept', async (t) => {
  const box = await sandbox(t)
  const served = await box.serve({ LOG_LEVEL: 'info' })
  const key = served.mintedKey!
  const orgId = await organization(served, key)
  const writers = startWriters(served, key, orgId)
  await waitUntil('some writes', 60_000, () => (writers.acknowledged.length >= 20 ? true : undefined))

  const killed = postmasterPid(box.dataDir)
  t.ok(killed && isAlive(killed), 'the embedded PostgreSQL runs')
  const logFrom = served.stderr().length
  process.kill(killed!, 'SIGKILL')
  t.ok(await gone(killed), 'the postmaster is dead')

  const restarted = await waitUntil('a new postmaster', 60_000, () => {
    const pid = postmasterPid(box.dataDir)
    return pid !== null && pid !== killed && isAlive(pid) ? pid : undefined
  })
  t.not(restarted, killed, 'the service started its PostgreSQL again')
  await checkAftermath(t, served, writers, key, orgId, logFrom)
  t.ok(await gone(restarted), 'the restarted PostgreSQL stops with the service')
})
