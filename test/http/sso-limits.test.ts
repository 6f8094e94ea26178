/**
 * The SSO sign-in steps write without a credential (a state row, events), so they count against the client
 * address's per-minute window like the OAuth writes: a flood of starts or forged callbacks meets the limit.
 */
import t from 'tap'
import { startTestSystem } from '../support/system.js'

t.test('GET /auth/oidc/<id>, its callback and POST /login/sso count against the address window', async (t) => {
  const ts = await startTestSystem(t, { rateLimits: { defaultPerMinute: 3 } })
  const start = () => ts.app.inject({ method: 'GET', url: '/auth/oidc/1', remoteAddress: '203.0.113.9' })
  for (let i = 1; i <= 3; i++) t.equal((await start()).statusCode, 404, `start ${i} within the limit (no such provider)`)
  const limited = await start()
  t.equal(limited.statusCode, 429, 'the fourth in the minute is refused')
  t.ok(limited.headers['retry-after'], 'with Retry-After')
  t.equal((await ts.app.inject({ method: 'GET', url: '/auth/oidc/1/callback?state=x&code=y', remoteAddress: '203.0.113.9' })).statusCode, 429, 'the callback shares it')
  t.equal(
    (await ts.app.inject({ method: 'POST', url: '/login/sso', remoteAddress: '203.0.113.9', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a%40b.test' })).statusCode,
    429,
    'and the /login/sso form',
  )
  t.equal((await ts.app.inject({ method: 'GET', url: '/auth/oidc/1', remoteAddress: '198.51.100.7' })).statusCode, 404, 'another address is not affected')
  t.equal((await ts.app.inject({ method: 'GET', url: '/login/sso', remoteAddress: '203.0.113.9' })).statusCode, 200, 'the page itself is not limited')
})
