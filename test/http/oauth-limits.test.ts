/**
 * The OAuth endpoints that write without a credential are rate-limited by client address, like an
 * unauthenticated API call: a flood of registrations (or token guesses) meets the per-minute window.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'

// The windows are per clock minute: a pinned instant keeps a run that crosses a minute from starting a new one
// halfway (a real clock made this file fail now and then, with 403 from the form behind the limit instead of 429).
const midMinute = () => Date.UTC(2026, 10, 26, 12, 0, 30)

t.test('POST /oauth/register and /oauth/token count against the address window', async (t) => {
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute: 3, now: midMinute } })
  const register = () =>
    ts.app.inject({
      method: 'POST',
      url: '/oauth/register',
      remoteAddress: '203.0.113.9',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ client_name: 'Spam', redirect_uris: ['https://spam.example/cb'] }),
    })
  for (let i = 1; i <= 3; i++) {
    const ok = await register()
    t.equal(ok.statusCode, 201, `registration ${i} within the limit`)
    t.equal(ok.headers['x-ratelimit-limit'], '3')
  }
  const limited = await register()
  t.equal(limited.statusCode, 429, 'the fourth in the minute is refused')
  t.ok(limited.headers['retry-after'], 'with Retry-After')
  const token = await ts.app.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress: '203.0.113.9',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'grant_type=refresh_token&client_id=1&refresh_token=x',
  })
  t.equal(token.statusCode, 429, 'the token endpoint shares the address window')
  const elsewhere = await ts.app.inject({
    method: 'POST',
    url: '/oauth/register',
    remoteAddress: '198.51.100.7',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ client_name: 'Fine', redirect_uris: ['https://fine.example/cb'] }),
  })
  t.equal(elsewhere.statusCode, 201, 'another address is not affected')
  const metadata = await ts.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server', remoteAddress: '203.0.113.9' })
  t.equal(metadata.statusCode, 200, 'discovery is not limited')
})
