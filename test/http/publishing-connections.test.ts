/**
 * Site connections through the RPCs with real keys (FTP/SFTP, the SSH key, the notification URL and the
 * reads): set, read back, keep or replace the password, clear; the key made once and rotated on request; the
 * webhook URL policy; the WordPress post ids of the client's pages and content pages; no password or private key in any answer,
 * in the log's plain fields or the auditor's view; another organization's client answering like a missing one.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import { unseal } from '../../commands/secrets/service-key.js'
import { startTestSystem } from '../support/system.js'
import { clientPayload, expectError, orgWithKey, streamEvents, withoutIds } from './helpers.js'
import { LOOPBACK_ALLOWED, TEST_SERVICE_KEY } from './webhooks-helpers.js'

const FTP_PASSWORD = 'ftp-Secret-Pa55word-0001'

async function setup(t: Parameters<typeof startTestSystem>[0]) {
  const ts = await startTestSystem(t, {
    webhooks: {
      serviceKey: TEST_SERVICE_KEY,
      allowList: LOOPBACK_ALLOWED,
      resolve: async (host) => (host === 'intranet.example.com' ? ['10.0.0.7'] : ['93.184.216.34']),
    },
  })
  const org = await orgWithKey(ts, 'Acme')
  const other = await orgWithKey(ts, 'Other')
  const clientId = await ts.call<number>('add_client', clientPayload('Acme Plumbing'), org.key)
  const otherClient = await ts.call<number>('add_client', clientPayload('Other Roofing'), other.key)
  return { ts, org, other, clientId, otherClient }
}

t.test('FTP details: set, read without the password, keep or replace it, clear', async (t) => {
  const { ts, org, clientId } = await setup(t)
  t.same(await ts.call('get_client_ftp', { client_id: clientId }, org.key), null, 'none yet')
  t.same(await ts.call('get_ftp_capable_client_ids', {}, org.key), [])

  const set = await ts.call<any>(
    'set_client_ftp',
    { client_id: clientId, host: 'SFTP.AcmePlumbing.example.com', username: 'acme', password: FTP_PASSWORD, root_path: '/var/www/acme' },
    org.key,
  )
  t.match(set, {
    client_id: clientId,
    protocol: 'sftp',
    host: 'sftp.acmeplumbing.example.com',
    port: 22,
    user: 'acme',
    root_path: '/var/www/acme',
    has_password: true,
    has_ssh_key: false,
  })
  t.notOk(JSON.stringify(set).includes(FTP_PASSWORD), 'the password is not in the answer')
  t.same(await ts.call('get_client_ftp', { client_id: clientId }, org.key), set)
  t.same(await ts.call('get_ftp_capable_client_ids', {}, org.key), [clientId])

  const stream = `site_connection-${clientId}`
  const [event] = await streamEvents(ts, stream)
  t.equal(event!.type, 'SiteConnectionFtpSet')
  t.notOk(JSON.stringify(event!.data).includes(FTP_PASSWORD), 'the log holds the password only sealed')
  t.equal(unseal(TEST_SERVICE_KEY, event!.data.password_sealed), FTP_PASSWORD, 'sealed with the service key')

  // The same details again without a password keep it and record nothing.
  await ts.call(
    'set_client_ftp',
    { client_id: clientId, host: 'sftp.acmeplumbing.example.com', username: 'acme', root_path: '/var/www/acme' },
    org.key,
  )
  t.equal((await streamEvents(ts, stream)).length, 1, 'a repeat records nothing')
  // A new port keeps the password (same host and user).
  const moved = await ts.call<any>(
    'set_client_ftp',
    { client_id: clientId, host: 'sftp.acmeplumbing.example.com', username: 'acme', port: 2222, root_path: '/var/www/acme' },
    org.key,
  )
  t.match(moved, { port: 2222, has_password: true })
  // Plain FTP on another host without a password: none (an SSH key or nothing).
  const ftp = await ts.call<any>(
    'set_client_ftp',
    { client_id: clientId, host: 'ftp.acme.example.com', username: 'acme2', protocol: 'ftp' },
    org.key,
  )
  t.match(ftp, { protocol: 'ftp', port: 21, root_path: '/', has_password: false })
  t.same(await ts.call('get_ftp_capable_client_ids', {}, org.key), [], 'no password and no key: not capable')

  // Bad input: a URL for a host, a relative or climbing root path.
  expectError(
    t,
    await ts.rpc('set_client_ftp', { client_id: clientId, host: 'sftp://x.example.com', username: 'a' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('set_client_ftp', { client_id: clientId, host: 'x.example.com', username: 'a', root_path: 'www' }, org.key),
    400,
    'validation_failed',
  )
  expectError(
    t,
    await ts.rpc('set_client_ftp', { client_id: clientId, host: 'x.example.com', username: 'a', root_path: '/www/../etc' }, org.key),
    400,
    'validation_failed',
  )

  t.same(await ts.call('clear_client_ftp', { client_id: clientId }, org.key), { client_id: clientId, cleared: true })
  t.same(await ts.call('clear_client_ftp', { client_id: clientId }, org.key), { client_id: clientId, cleared: false }, 'again: nothing')
  t.same(await ts.call('get_client_ftp', { client_id: clientId }, org.key), null)
})

t.test('the SSH key: made once, returned again, rotated on request; it makes FTP capable without a password', async (t) => {
  const { ts, org, clientId } = await setup(t)
  const none = await ts.call<any>('get_client_ssh_pubkey', { client_id: clientId }, org.key)
  t.match(none, { client_id: clientId, public_key: null, fingerprint: null, created_at: null, hint: /create_client_ssh_key/ })

  const made = await ts.call<any>('create_client_ssh_key', { client_id: clientId }, org.key)
  t.equal(made.created, true)
  t.match(made.public_key, new RegExp(`^ssh-ed25519 AAAAC3NzaC1lZDI1NTE5[A-Za-z0-9+/]+=* rankrelay-client-${clientId}$`))
  t.match(made.fingerprint, /^SHA256:[A-Za-z0-9+/]{43}$/)
  const { created: _created, ...view } = made
  t.same(await ts.call('get_client_ssh_pubkey', { client_id: clientId }, org.key), view)

  const again = await ts.call<any>('create_client_ssh_key', { client_id: clientId }, org.key)
  t.same(again, { ...view, created: false }, 'asked again: the same key')
  const stream = `site_connection-${clientId}`
  t.equal((await streamEvents(ts, stream)).length, 1)

  const [event] = await streamEvents(ts, stream)
  const privateKey = unseal(TEST_SERVICE_KEY, event!.data.private_key_sealed)
  t.match(privateKey, /^-----BEGIN OPENSSH PRIVATE KEY-----\n/)
  t.notOk(JSON.stringify(made).includes('PRIVATE'), 'the private key is never answered')
  // The sealed private key opens to the key whose public half was answered (when ssh-keygen is here).
  const keygen = ['/usr/bin/ssh-keygen', '/usr/local/bin/ssh-keygen'].find((p) => fs.existsSync(p))
  if (keygen) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-ssh-'))
    t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
    fs.writeFileSync(path.join(dir, 'id'), privateKey, { mode: 0o600 })
    t.equal(
      execFileSync(keygen, ['-y', '-f', path.join(dir, 'id')])
        .toString()
        .trim(),
      made.public_key,
      'ssh-keygen -y derives the public key',
    )
  }

  const rotated = await ts.call<any>('create_client_ssh_key', { client_id: clientId, rotate: true }, org.key)
  t.equal(rotated.created, true)
  t.not(rotated.fingerprint, made.fingerprint, 'a new key')
  const events = await streamEvents(ts, stream)
  t.equal(events[1]!.data.replaced_fingerprint, made.fingerprint, 'the rotation names the key it replaced')

  await ts.call('set_client_ftp', { client_id: clientId, host: 'sftp.acme.example.com', username: 'acme', password: null }, org.key)
  t.match(await ts.call('get_client_ftp', { client_id: clientId }, org.key), { has_password: false, has_ssh_key: true })
  t.same(await ts.call('get_ftp_capable_client_ids', {}, org.key), [clientId], 'a key signs in instead of a password')
})

t.test('the notification URL: the webhook policy, set, clear', async (t) => {
  const { ts, org, clientId } = await setup(t)
  t.same(await ts.call('get_client_webhook', { client_id: clientId }, org.key), { client_id: clientId, url: null, set_at: null })
  const set = await ts.call<any>('set_client_webhook', { client_id: clientId, url: 'https://hooks.acme.example.com/rr' }, org.key)
  t.match(set, { client_id: clientId, url: 'https://hooks.acme.example.com/rr', set_at: String })
  t.same(await ts.call('get_client_webhook', { client_id: clientId }, org.key), set)

  for (const [url, what] of [
    ['http://hooks.acme.example.com/rr', 'plain http to a public host'],
    ['https://10.0.0.7/rr', 'a private address'],
    ['https://intranet.example.com/rr', 'a name that resolves to a private address'],
    ['https://user:pw@hooks.acme.example.com/rr', 'credentials in the URL'],
    ['https://169.254.169.254/latest', 'link-local (cloud metadata)'],
  ] as const) {
    expectError(t, await ts.rpc('set_client_webhook', { client_id: clientId, url }, org.key), 400, 'webhook_url_refused', what)
  }
  t.same(await ts.call('get_client_webhook', { client_id: clientId }, org.key), set, 'the refusals changed nothing')
  t.equal((await streamEvents(ts, `site_connection-${clientId}`)).length, 1)

  const cleared = await ts.call<any>('set_client_webhook', { client_id: clientId, url: null }, org.key)
  t.same(cleared, { client_id: clientId, url: null, set_at: null })
  await ts.call('set_client_webhook', { client_id: clientId, url: null }, org.key)
  t.equal((await streamEvents(ts, `site_connection-${clientId}`)).length, 2, 'clearing again records nothing')
})

t.test("get_client_wp_post_ids: the WordPress ids of the client's pages and content pages, distinct and ascending", async (t) => {
  const { ts, org, clientId } = await setup(t)
  t.same(await ts.call('get_client_wp_post_ids', { client_id: clientId }, org.key), [])
  for (const [p, id] of [
    ['/about', 14],
    ['/', 2],
    ['/contact', null],
  ] as const) {
    const page = { client_id: clientId, url: `https://acme-plumbing.example.com${p}`, title: p, ...(id ? { wp_post_id: id } : {}) }
    await ts.call('add_page', { page }, org.key)
  }
  t.same(await ts.call('get_client_wp_post_ids', { client_id: clientId }, org.key), [2, 14])
  // A content page the service created on the site counts too; an id both know is listed once.
  await ts.call('create_content_page', { client_id: clientId, wp_post_id: 481 }, org.key)
  await ts.call('create_content_page', { client_id: clientId, wp_post_id: 14 }, org.key)
  t.same(await ts.call('get_client_wp_post_ids', { client_id: clientId }, org.key), [2, 14, 481])
})

t.test("another organization's client answers like a missing one, and nothing is recorded for it", async (t) => {
  const { ts, org, other, otherClient } = await setup(t)
  const missing = otherClient + 10_000
  const calls: [string, (id: number) => Record<string, unknown>][] = [
    ['get_client_ftp', (id) => ({ client_id: id })],
    ['set_client_ftp', (id) => ({ client_id: id, host: 'sftp.x.example.com', username: 'x', password: 'p' })],
    ['clear_client_ftp', (id) => ({ client_id: id })],
    ['get_client_ssh_pubkey', (id) => ({ client_id: id })],
    ['create_client_ssh_key', (id) => ({ client_id: id })],
    ['set_client_webhook', (id) => ({ client_id: id, url: 'https://hooks.x.example.com/' })],
    ['get_client_webhook', (id) => ({ client_id: id })],
    ['get_client_wp_post_ids', (id) => ({ client_id: id })],
    ['get_client_wordpress', (id) => ({ client_id: id })],
    ['remove_client_wordpress', (id) => ({ client_id: id })],
  ]
  for (const [method, body] of calls) {
    const foreign = expectError(t, await ts.rpc(method, body(otherClient), org.key), 404, 'not_found', `${method} foreign`)
    const absent = expectError(t, await ts.rpc(method, body(missing), org.key), 404, 'not_found', `${method} missing`)
    t.same(withoutIds(foreign, [otherClient]), withoutIds(absent, [missing]), `${method}: foreign answers like missing`)
  }
  t.same(await streamEvents(ts, `site_connection-${otherClient}`), [], 'nothing recorded for the other organization')
  // The platform key reaches any organization's client; lists name the organization.
  await ts.call(
    'set_client_ftp',
    { client_id: otherClient, host: 'sftp.other.example.com', username: 'o', password: 'p', org_id: other.orgId },
    ts.platformKey,
  )
  t.same(await ts.call('get_ftp_capable_client_ids', { org_id: other.orgId }, ts.platformKey), [otherClient])
  t.same(await ts.call('get_ftp_capable_client_ids', {}, org.key), [], "an organization key sees its own clients' only")
  expectError(t, await ts.rpc('get_ftp_capable_client_ids', {}, ts.platformKey), 400, 'org_id_required')
})

t.test('history and the auditor never show a sealed field', async (t) => {
  const { ts, org, clientId } = await setup(t)
  await ts.call('set_client_ftp', { client_id: clientId, host: 'sftp.acme.example.com', username: 'acme', password: FTP_PASSWORD }, org.key)
  await ts.call('create_client_ssh_key', { client_id: clientId }, org.key)
  const month = new Date().toISOString().slice(0, 7)
  const changes = await ts.call<any[]>('get_entity_changes', { client_id: clientId, month }, org.key)
  const mine = changes.filter((c) => String(c.event_type ?? c.type).startsWith('SiteConnection'))
  t.equal(mine.length, 2, 'the auditor lists the connection events')
  const text = JSON.stringify(changes)
  for (const hidden of ['password_sealed', 'private_key_sealed', FTP_PASSWORD, 'PRIVATE KEY', 'v1.'])
    t.notOk(text.includes(hidden), `no ${hidden}`)
})
