/**
 * An external database: the PostgreSQL behind DATABASE_URL is stopped under four writers and
 * started again some seconds later. Reads, writes and health answer 503 store_unavailable with Retry-After
 * while it is down, and the running service reconnects by itself (store-outage-support.ts checks the aftermath).
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { freePort, startEmbeddedPostgres, type EmbeddedCluster } from '../../ops/embedded-postgres.js'
import { ensureDatabase } from '../../ops/postgres.js'
import { randomKey, sandbox, waitUntil } from './spawn.js'
import { checkAftermath, checkDuringOutage, organization, startWriters } from './store-outage-support.js'

t.test('an external PostgreSQL stopped and started again under a running service is reconnected to', async (t) => {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'rankrelay-external-'))
  const port = await freePort()
  const start = () => startEmbeddedPostgres({ directory: path.join(directory, 'pg'), password: 'outage', port, durable: false })
  let cluster: EmbeddedCluster | undefined = await start()
  t.teardown(async () => {
    await cluster?.stop().catch(() => {})
    await fs.rm(directory, { recursive: true, force: true }).catch(() => {})
  })
  await ensureDatabase(cluster.connectionString('postgres'), 'outage')
  const box = await sandbox(t)
  const platformKey = randomKey()
  const env = {
    DATABASE_URL: cluster.connectionString('outage'),
    PLATFORM_KEY: platformKey,
    SERVICE_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    LOG_LEVEL: 'info',
  }
  const served = await box.serve(env)
  const orgId = await organization(served, platformKey)
  const writers = startWriters(served, platformKey, orgId)
  t.teardown(() => writers.stop())
  await waitUntil('some writes', 60_000, () => (writers.acknowledged.length >= 20 ? true : undefined))

  const logFrom = served.stderr().length
  await cluster.stop()
  cluster = undefined
  // Down for a while: every read and write, and health, says so.
  await checkDuringOutage(t, served, writers, platformKey, orgId)
  await new Promise((resolve) => setTimeout(resolve, 3000))

  cluster = await start()
  await checkAftermath(t, served, writers, platformKey, orgId, logFrom)
})
