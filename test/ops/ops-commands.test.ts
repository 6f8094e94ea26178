/**
 * Ops commands while the service runs, against the same DATA_DIR (they attach to the embedded PostgreSQL the
 * service started): replay (NDJSON for auditors), create-platform-key and rebuild (blue/green, no downtime).
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import t from 'tap'
import { LIVE_SCHEMA } from '../../migrations/read-models/index.js'
import { call, health, readOwner, rpc, sandbox, sleep, type Sandbox, type Served } from './spawn.js'

interface ReplayLine {
  position: string
  stream: string
  revision: number
  id: string
  type: string
  data: Record<string, unknown>
  metadata: { org_id: number | null; [key: string]: unknown }
  recorded_at: string
}

function parseNdjson(t: { ok(value: unknown, message: string): unknown }, stdout: string): ReplayLine[] {
  t.ok(stdout === '' || stdout.endsWith('\n'), 'NDJSON ends with a newline')
  const lines = stdout.split('\n').filter((line) => line !== '')
  return lines.map((line) => JSON.parse(line) as ReplayLine)
}

/** Positions are "<transaction id>/<sequence>" for the PostgreSQL store; compare them numerically. */
function positionKey(position: string): [bigint, bigint] {
  const [tx, seq] = position.split('/')
  return [BigInt(tx!), BigInt(seq!)]
}
const before = (a: string, b: string) => {
  const [ta, sa] = positionKey(a)
  const [tb, sb] = positionKey(b)
  return ta < tb || (ta === tb && sa < sb)
}

t.test('ops commands against a running service', async (t) => {
  const box: Sandbox = await sandbox(t)
  const served: Served = await box.serve()
  const url = served.baseUrl
  const key = served.mintedKey!
  t.ok(key, 'a platform key was minted')

  // Two organizations, so replay can be shown to keep to one.
  const orgA = await call<number>(url, 'create_organization', { name: 'Audited Agency' }, key)
  const clientA = await call<number>(
    url,
    'add_client',
    { org_id: orgA, client: { name: 'Alpha Dental', website_url: 'https://alpha.example.com' } },
    key,
  )
  await call(url, 'add_service', { org_id: orgA, service: { client_id: clientA, name: 'Implants' } }, key)
  const orgKey = await call<{ id: number; key: string }>(
    url,
    'create_api_key',
    { org_id: orgA, name: 'agency key', scopes: 'read,write' },
    key,
  )
  await call(url, 'update_client', { client_id: clientA, name: 'Alpha Dental Care' }, orgKey.key)
  const orgB = await call<number>(url, 'create_organization', { name: 'Other Agency' }, key)
  const clientB = await call<number>(
    url,
    'add_client',
    { org_id: orgB, client: { name: 'Beta Roofing', website_url: 'https://beta.example.com' } },
    key,
  )
  const clientAView = await call(url, 'get_client', { org_id: orgA, client_id: clientA }, key)
  const clientBView = await call(url, 'get_client', { org_id: orgB, client_id: clientB }, key)

  // Every ops command is a tsx start (seconds of CPU); independent ones run side by side.
  const replayRun = box.run(['replay', '--org', String(orgA)])
  const keyRun = box.run(['create-platform-key', '--name', 'CI key'])
  let replayA: ReplayLine[] = []

  await t.test('replay --org prints that organization’s history as NDJSON, and nothing else', async (t) => {
    const a = await replayRun
    t.equal(a.code, 0, `replay exits 0: ${a.stderr}`)
    replayA = parseNdjson(t, a.stdout)
    t.same(
      replayA.map((line) => line.type),
      // add_client's reservations (get-or-create identity, the slug derived from the name) are the
      // organization's events too; update_client claims the renamed client's identity.
      [
        'OrganizationCreated',
        'ClientIdentityClaimed',
        'ClientSlugClaimed',
        'ClientAdded',
        'ClientServiceAdded',
        'ApiKeyCreated',
        'ClientUpdated',
        'ClientIdentityClaimed',
      ],
      'one line per event of the organization, in log order',
    )
    for (const line of replayA) {
      t.match(
        line,
        { type: String, data: Object, metadata: { org_id: orgA }, position: /^\d+\/\d+$/, stream: String, revision: Number },
        `${line.type}: type, data, metadata (with org_id), position, stream and revision`,
      )
      t.ok(Number.isInteger(line.revision) && line.revision >= 0, `${line.type}: revision is a non-negative integer`)
    }
    t.match(replayA[0], {
      type: 'OrganizationCreated',
      stream: `organization-${orgA}`,
      revision: 0,
      data: { org_id: orgA, name: 'Audited Agency' },
    })
    t.match(replayA[1], {
      type: 'ClientIdentityClaimed',
      stream: new RegExp(`^client_identity-${orgA}-[0-9a-f]{32}$`),
      data: { org_id: orgA, client_id: clientA },
    })
    t.match(replayA[2], { type: 'ClientSlugClaimed', stream: `client_slug-${orgA}-alpha-dental`, data: { client_id: clientA } })
    t.match(replayA[3], {
      type: 'ClientAdded',
      stream: `client-${clientA}`,
      revision: 0,
      data: { client_id: clientA, org_id: orgA, slug: 'alpha-dental' },
    })
    t.match(replayA[4], { type: 'ClientServiceAdded', stream: `client-${clientA}`, revision: 1 })
    t.match(replayA[5], { type: 'ApiKeyCreated', stream: `api_key-${orgKey.id}` })
    t.match(replayA[6], {
      type: 'ClientUpdated',
      stream: `client-${clientA}`,
      revision: 2,
      metadata: { actor: { kind: 'api_key', id: orgKey.id } },
    })
    t.match(replayA[7], {
      type: 'ClientIdentityClaimed',
      data: { client_id: clientA },
      metadata: { actor: { kind: 'api_key', id: orgKey.id } },
    })
    t.notOk(a.stdout.includes(orgKey.key), 'no plaintext key in the history')
    // The replay leaves out what the export leaves out (domain/exports/redact.ts): no key hash or hint.
    t.notOk(a.stdout.includes(createHash('sha256').update(orgKey.key).digest('hex')), 'no key hash in the history')
    t.notOk(a.stdout.includes(orgKey.key.slice(0, 10)), 'no key hint either')
    const keyCreated = replayA.find((line) => line.type === 'ApiKeyCreated') as (ReplayLine & { redacted?: string[] }) | undefined
    t.same(keyCreated?.redacted, ['key_hash', 'key_hint'], 'the line names what was left out')
    const secretLike = (value: unknown): string[] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([name, inner]) => [
            ...(/secret|passw|token|hash|hint|cipher|nonce|salt/i.test(name) ? [name] : []),
            ...secretLike(inner),
          ])
        : []
    t.same(
      replayA.flatMap((line) => secretLike(line.data)),
      [],
      'no secret-like field in any line',
    )
    for (let i = 1; i < replayA.length; i++) t.ok(before(replayA[i - 1]!.position, replayA[i]!.position), `positions increase (${i})`)
    t.match(
      a.stderr,
      new RegExp(`replay: ${replayA.length} events of organization ${orgA}`),
      'a summary on stderr, not mixed into the NDJSON',
    )
    t.match(
      a.stderr,
      `replay: attached to DATA_DIR=${box.dataDir} (the embedded PostgreSQL of the service running as pid `,
      'it says what it attached to, on stderr',
    )

    t.notOk(
      replayA.some((line) => line.stream === `organization-${orgB}` || line.stream === `client-${clientB}`),
      'nothing of the other organization',
    )
  })

  await t.test('replay --from <position> prints only what follows; bad input fails', async (t) => {
    const first = replayA[0]!
    const [rest, bad] = await Promise.all([
      box.run(['replay', '--org', String(orgA), '--from', first.position]),
      box.run(['replay', '--org', String(orgA), '--from', 'yesterday']),
    ])
    t.equal(rest.code, 0)
    t.same(parseNdjson(t, rest.stdout), replayA.slice(1), '--from the first line: exactly the other lines, identical')
    t.match(rest.stderr, new RegExp(`replay: ${replayA.length - 1} events of organization ${orgA}`))
    t.not(bad.code, 0, 'a --from that is not a position fails')
    t.match(bad.stderr, /--from yesterday is not a position/, 'and says so')
    t.equal(bad.stdout, '', 'printing nothing')
  })

  await t.test('create-platform-key prints a new key that works against the running service', async (t) => {
    const result = await keyRun
    t.equal(result.code, 0, result.stderr)
    const match = /^Platform key (\d+) \(shown once\): (rrk_[A-Za-z0-9_-]{20,})\n$/.exec(result.stdout)
    t.ok(match, `prints one line with the id and key: ${JSON.stringify(result.stdout)}`)
    const newKey = match?.[2] ?? ''
    t.not(newKey, key, 'a new key, not the bootstrap one')
    t.notOk(result.stderr.includes(newKey), 'the key is not logged')
    // The running service (not the ops process) must accept it: its read model was written by the service's runner.
    const made = await rpc(url, 'create_organization', { name: 'Made With New Key' }, newKey)
    t.equal(made.status, 200, `create_organization with the new key: ${JSON.stringify(made.body)}`)
    t.same(await call(url, 'get_client', { org_id: orgA, client_id: clientA }, newKey), clientAView, 'it reads across organizations')
    const keys = await call<{ id: number; name: string; org_id: number | null }[]>(url, 'list_api_keys', { org_id: orgA }, newKey)
    t.notOk(
      keys.some((k) => k.org_id === null),
      'platform keys are not listed as an organization’s keys',
    )
  })

  await t.test('rebuild swaps in fresh read models while the service keeps answering', async (t) => {
    const healthBefore = await health(url)
    const readsDuringRebuild: number[] = []
    let differentAnswers = 0
    let rebuilding = true
    const reader = (async () => {
      while (rebuilding) {
        const response = await rpc(url, 'get_client', { org_id: orgA, client_id: clientA }, key)
        readsDuringRebuild.push(response.status)
        if (response.status === 200 && JSON.stringify(response.body.result) !== JSON.stringify(clientAView)) differentAnswers++
        await sleep(25)
      }
    })()
    const result = await box.run(['rebuild'])
    rebuilding = false
    await reader

    t.equal(result.code, 0, `rebuild exits 0: ${result.stderr}`)
    const done = /^Rebuilt the read models from ([\d,]+) events in [\d.]+s; they are live now\.\n$/.exec(result.stdout)
    t.ok(done, `a final "Rebuilt … events" line on stdout: ${JSON.stringify(result.stdout)}`)
    const rebuiltEvents = Number((done?.[1] ?? '0').replace(/,/g, ''))
    t.equal(rebuiltEvents, healthBefore.counts.events, 'it rebuilt from every event in the log')
    t.match(
      result.stderr,
      /^rebuild: attached to DATA_DIR=.* \(the embedded PostgreSQL of the service running as pid \d+\)\n/,
      'first it says what it attached to',
    )
    const progress = result.stderr.split('\n').filter((line) => line.startsWith('rebuild: ') && !line.startsWith('rebuild: attached to '))
    t.ok(progress.length >= 2, 'progress lines on stderr')
    for (const line of progress)
      t.match(line, /^rebuild: (building|swapping|done) [\d,]+( of [\d,]+)? events.*, [\d,]+ events\/s/, `progress line: ${line}`)
    t.ok(
      progress.some((line) => line.startsWith('rebuild: swapping')),
      'it reports the swap',
    )
    t.match(progress[progress.length - 1], /^rebuild: done /, 'and ends with done')
    t.ok(readsDuringRebuild.length > 0, 'the service was read while the rebuild ran')
    t.same([...new Set(readsDuringRebuild)], [200], `every read during the rebuild succeeded (${readsDuringRebuild.length} reads)`)
    t.equal(differentAnswers, 0, 'and answered the same client')

    // The service answers from the swapped-in schema as before.
    t.same(await call(url, 'get_client', { org_id: orgA, client_id: clientA }, key), clientAView, 'get_client after the swap')
    t.same(await call(url, 'get_client', { org_id: orgB, client_id: clientB }, key), clientBView)
    const healthAfter = await health(url)
    t.same(healthAfter.counts, healthBefore.counts, 'the same rows after the rebuild')

    // Writes keep flowing through the live runner into the new schema, and read-your-writes still holds.
    const added = await rpc(
      url,
      'add_client',
      { org_id: orgA, client: { name: 'Post Swap Dental', website_url: 'https://post-swap.example.com' } },
      key,
    )
    t.equal(added.status, 200)
    t.equal(added.headers.get('x-read-your-writes'), 'reached', 'the write waited for the projections, and they reached it')
    const newClient = added.body.result as number
    t.match(
      await call(url, 'get_client', { org_id: orgA, client_id: newClient }, key),
      { id: newClient, name: 'Post Swap Dental' },
      'a new client is readable at once',
    )
    const updated = await rpc(url, 'update_client', { org_id: orgA, client_id: clientA, name: 'Alpha Dental Group' }, key)
    t.equal(updated.status, 200)
    t.equal(updated.headers.get('x-read-your-writes'), 'reached')
    t.match(
      await call(url, 'get_client', { org_id: orgA, client_id: clientA }, key),
      { name: 'Alpha Dental Group' },
      'an update to a rebuilt row is readable at once',
    )
    t.equal((await health(url)).counts.clients, healthBefore.counts.clients + 1)

    // Only the live schema is left: the rebuild's working schema and the retired copy are gone.
    const owner = readOwner(box.dataDir)!
    const { password } = JSON.parse(await fs.readFile(path.join(box.dataDir, 'credentials.json'), 'utf8')) as { password: string }
    const client = new pg.Client({
      connectionString: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${owner.port}/rankrelay`,
    })
    await client.connect()
    try {
      const { rows } = await client.query<{ name: string }>(
        `select nspname as name from pg_namespace where nspname like 'read_models%' order by 1`,
      )
      t.same(
        rows.map((r) => r.name),
        [LIVE_SCHEMA],
        'one read-model schema left',
      )
    } finally {
      await client.end()
    }
  })

  await t.test('update_client and set_client_status answer with the client as written', async (t) => {
    const updated = await rpc(url, 'update_client', { org_id: orgA, client_id: clientA, name: 'Alpha Dental Partners' }, key)
    t.match(updated.body.result, { name: 'Alpha Dental Partners' }, 'update_client answers with the new name')
    const paused = await rpc(url, 'set_client_status', { org_id: orgA, client_id: clientA, status: 'paused' }, key)
    t.match(paused.body.result, { status: 'paused' }, 'set_client_status answers with the new status')
  })

  await t.test('the service still stops cleanly after the ops commands', async (t) => {
    const exit = await served.stop()
    t.not(exit.signal, 'SIGKILL', 'it stopped without SIGKILL')
  })
})
