/**
 * The SSO sign-in steps write without a credential (a state or request row, events), so they count against the
 * client address's per-minute window like the OAuth writes: a flood of starts, forged callbacks or posted
 * responses meets the limit. A browser is told so with a page.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'

// The windows are per clock minute: a pinned instant keeps a run that crosses a minute from starting a new one
// halfway (a real clock made this file fail now and then, with 403 from the form behind the limit instead of 429).
const midMinute = () => Date.UTC(2026, 10, 26, 12, 0, 30)

t.test('GET /auth/oidc/<id>, its callback, POST /login/sso and the SAML login and ACS count against the address window', async (t) => {
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute: 3, now: midMinute } })
  const start = () => ts.app.inject({ method: 'GET', url: '/auth/oidc/1', remoteAddress: '203.0.113.9' })
  for (let i = 1; i <= 3; i++) t.equal((await start()).statusCode, 404, `start ${i} within the limit (no such provider)`)
  const limited = await start()
  t.equal(limited.statusCode, 429, 'the fourth in the minute is refused')
  t.ok(limited.headers['retry-after'], 'with Retry-After')
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/auth/oidc/1/callback?state=x&code=y', remoteAddress: '203.0.113.9' })).statusCode,
    429,
    'the callback shares it',
  )
  t.equal(
    (
      await ts.app.inject({
        method: 'POST',
        url: '/login/sso',
        remoteAddress: '203.0.113.9',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'email=a%40b.test',
      })
    ).statusCode,
    429,
    'and the /login/sso form',
  )
  const page = await ts.app.inject({
    method: 'GET',
    url: '/auth/oidc/1',
    remoteAddress: '203.0.113.9',
    headers: { accept: 'text/html,application/xhtml+xml' },
  })
  t.equal(page.statusCode, 429, 'a browser is refused too…')
  t.match(page.headers['content-type'], /text\/html/, '…with a page, not JSON')
  t.match(page.body, /Too many sign-in attempts/)
  t.match(page.body, /rate_limited/)
  t.ok(page.headers['retry-after'], 'and Retry-After')
  const saml = await ts.app.inject({
    method: 'POST',
    url: '/saml/abcdefghijklmnopqrstuvwx/acs',
    remoteAddress: '203.0.113.9',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'SAMLResponse=x',
  })
  t.equal(saml.statusCode, 429, 'the SAML ACS shares the window')
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/saml/abcdefghijklmnopqrstuvwx/login', remoteAddress: '203.0.113.9' })).statusCode,
    429,
    'and the SAML login start',
  )
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/auth/oidc/1', remoteAddress: '198.51.100.7' })).statusCode,
    404,
    'another address is not affected',
  )
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/login/sso', remoteAddress: '203.0.113.9' })).statusCode,
    200,
    'the page itself is not limited',
  )
})

t.test('the sign-in forms count against the address window: one address cannot spray passwords across accounts', async (t) => {
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute: 4, now: midMinute } })
  const post = (url: string, remoteAddress = '203.0.113.20') =>
    ts.app.inject({
      method: 'POST',
      url,
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' },
      payload: 'email=a%40b.test&password=x&code=123456',
    })
  for (const [i, email] of ['a', 'b', 'c', 'd'].entries()) {
    const response = await ts.app.inject({
      method: 'POST',
      url: '/login',
      remoteAddress: '203.0.113.20',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `email=${email}%40acme.test&password=wrong`,
    })
    t.not(response.statusCode, 429, `attempt ${i + 1} within the limit`)
  }
  const limited = await post('/login')
  t.equal(limited.statusCode, 429, 'the fifth in the minute is refused, whatever account it names')
  t.match(limited.body, /Too many sign-in attempts/, 'with a page')
  for (const url of ['/password-reset', '/password-reset/sometoken', '/invite/sometoken', '/invite/sometoken/confirm'])
    t.equal((await post(url)).statusCode, 429, `${url} shares the window`)
  t.not((await post('/login', '198.51.100.20')).statusCode, 429, 'another address is not affected')
  t.equal(
    (await ts.app.inject({ method: 'GET', url: '/login', remoteAddress: '203.0.113.20' })).statusCode,
    200,
    'the page itself is not limited',
  )
})
