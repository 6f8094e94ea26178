/**
 * Invite and password-reset links are absolute on the service's configured public address, like every other
 * URL it hands out (read-api/platform/public-base-url.ts): BASE_URL when set, else the address it listens on,
 * never the request's Host, and never a bare path, which a person handed the link cannot open.
 */
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { startTestSystem } from '../support/system.js'
import { orgWithKey } from './helpers.js'
import { signedInMember } from './oauth-support.js'
import { Browser } from './people-support.js'

const clock = { now: Date.parse('2026-11-25T12:00:00.000Z') }

t.test('without BASE_URL, invite and reset links are absolute on the listen address, whatever Host says', async (t) => {
  const links: string[] = []
  const ts = await startTestSystem(t, {
    clock: () => new Date(clock.now),
    people: { deliverPasswordReset: async (r) => void links.push(r.link) },
  })
  await ts.app.listen({ host: '127.0.0.1', port: 0 })
  const origin = `http://127.0.0.1:${(ts.app.server.address() as AddressInfo).port}`
  const acme = await orgWithKey(ts, 'Acme')

  const invited = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/invite_org_member',
    headers: { authorization: `Bearer ${acme.key}`, 'content-type': 'application/json', host: 'evil.example' },
    payload: JSON.stringify({ email: 'bob@acme.test', role: 'seo_editor' }),
  })
  const inviteUrl: string = invited.json().result.invite_url
  t.match(inviteUrl, new RegExp(`^${origin}/invite/[A-Za-z0-9_-]{43}$`), `the invite link is absolute on the listen address (${inviteUrl})`)
  t.equal((await fetch(inviteUrl)).status, 200, 'and opens the invite page')

  await signedInMember(ts, clock, acme.key, 'ann@acme.test', 'owner')
  clock.now += 10 * 60_000
  const b = new Browser(ts.app)
  await b.get('/password-reset')
  const asked = await ts.app.inject({
    method: 'POST',
    url: '/password-reset',
    headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'evil.example', cookie: b.cookieHeader },
    payload: new URLSearchParams({ email: 'ann@acme.test', csrf: b.lastCsrf! }).toString(),
  })
  t.equal(asked.statusCode, 200, asked.body.slice(0, 200))
  t.equal(links.length, 1, 'a reset link was delivered')
  t.match(
    links[0],
    new RegExp(`^${origin}/password-reset/[A-Za-z0-9_-]{43}$`),
    `the reset link is absolute on the listen address (${links[0]})`,
  )
  t.equal((await fetch(links[0]!)).status, 200, 'and opens the new-password page')
})

t.test('with BASE_URL, the links are on it', async (t) => {
  const links: string[] = []
  const ts = await startTestSystem(t, {
    clock: () => new Date(clock.now),
    publicDocs: { baseUrl: 'https://rankrelay.example.com/' },
    people: { deliverPasswordReset: async (r) => void links.push(r.link) },
  })
  const acme = await orgWithKey(ts, 'Acme')
  const invite = await ts.call<{ invite_url: string }>('invite_org_member', { email: 'bob@acme.test', role: 'seo_editor' }, acme.key)
  t.match(invite.invite_url, /^https:\/\/rankrelay\.example\.com\/invite\/[A-Za-z0-9_-]{43}$/, 'the invite link, one slash after the host')
  await signedInMember(ts, clock, acme.key, 'ann@acme.test', 'owner')
  clock.now += 10 * 60_000
  const b = new Browser(ts.app)
  await b.get('/password-reset')
  await b.post('/password-reset', { email: 'ann@acme.test' })
  t.match(links, [/^https:\/\/rankrelay\.example\.com\/password-reset\/[A-Za-z0-9_-]{43}$/], 'the reset link')
})
