/**
 * What the OAuth tests share: members signed in through the real pages (invite → password → TOTP → /login),
 * PKCE pairs, registration, the authorize → consent → approve round trip, and token requests, all over
 * app.inject().
 */
import { createHash, randomBytes } from 'node:crypto'
import type { LightMyRequestResponse } from 'fastify'
import type { TestSystem } from '../support/system.js'
import { Browser, codeAt, enrolmentOf } from './people-support.js'

export interface Clock {
  now: number
}

export const pkce = () => {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** A member of the organization of `orgKey`, with `role`, signed in on a fresh browser. */
export async function signedInMember(
  ts: TestSystem,
  clock: Clock,
  orgKey: string,
  email: string,
  role: string,
): Promise<{ browser: Browser; userId: number }> {
  const password = 'correct horse battery'
  const invite = await ts.call<{ user_id: number; invite_url: string }>('invite_org_member', { email, role }, orgKey)
  const b = new Browser(ts.app)
  const path = new URL(invite.invite_url, 'http://x').pathname
  await b.get(path)
  const set = await b.post(path, { password, confirm: password })
  const { secret } = enrolmentOf(set.body)
  clock.now += 30_000
  await b.post(`${path}/confirm`, { code: codeAt(secret, clock.now) })
  clock.now += 30_000
  await b.get('/login')
  const login = await b.post('/login', { email, password, code: codeAt(secret, clock.now) })
  if (login.statusCode !== 303) throw new Error(`sign-in failed: ${login.statusCode} ${login.body.slice(0, 300)}`)
  return { browser: b, userId: invite.user_id }
}

export async function register(ts: TestSystem, body: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return ts.app.inject({
    method: 'POST',
    url: '/oauth/register',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  })
}

export async function registerClient(
  ts: TestSystem,
  redirectUris: string[] = ['https://app.example/callback'],
  name = 'Test App',
): Promise<string> {
  const response = await register(ts, { client_name: name, redirect_uris: redirectUris, token_endpoint_auth_method: 'none' })
  if (response.statusCode !== 201) throw new Error(`register: ${response.statusCode} ${response.body}`)
  return response.json().client_id
}

export function authorizeUrl(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.append(k, v)
  return `/oauth/authorize?${query}`
}

export const redirectParams = (response: LightMyRequestResponse) => new URL(String(response.headers.location)).searchParams

/** GET /oauth/authorize as the member, then Allow (or Deny) on the consent page; returns both answers. */
export async function consent(browser: Browser, params: Record<string, string | undefined>, decision: 'approve' | 'deny' = 'approve') {
  const page = await browser.get(authorizeUrl(params))
  if (page.statusCode !== 200) return { page, answer: page }
  const form: Record<string, string> = {}
  for (const m of page.body.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&')
  const answer = await browser.post('/oauth/authorize', { ...form, decision }, form.csrf ?? null)
  return { page, answer }
}

export async function tokenRequest(ts: TestSystem, form: Record<string, string>): Promise<LightMyRequestResponse> {
  return ts.app.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  })
}

/** The whole code flow for a member: consent, then the code exchange; returns the token response. */
export async function codeFlow(
  ts: TestSystem,
  browser: Browser,
  clientId: string,
  options: { scope?: string; redirectUri?: string } = {},
): Promise<{ code: string; verifier: string; redirectUri: string; tokens: LightMyRequestResponse }> {
  const { verifier, challenge } = pkce()
  const redirectUri = options.redirectUri ?? 'https://app.example/callback'
  const { answer } = await consent(browser, {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: options.scope ?? 'read write offline_access',
    state: 'st-1',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  })
  if (answer.statusCode !== 303) throw new Error(`consent: ${answer.statusCode} ${answer.body.slice(0, 300)}`)
  const code = redirectParams(answer).get('code')!
  const tokens = await tokenRequest(ts, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: clientId,
    redirect_uri: redirectUri,
  })
  return { code, verifier, redirectUri, tokens }
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` })
