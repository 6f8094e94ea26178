/**
 * A real OpenID provider for the SSO tests: `oidc-provider` in-process on 127.0.0.1 (port 0), with one
 * confidential client, accounts with and without email_verified and with hd claims, and a stand-in for the
 * login page that signs in whichever account the test names next (the IdP's own UI is not what is tested).
 * Consent is granted by `loadExistingGrant`, as a company IdP does for its own apps.
 *
 * `CookieBrowser` is fetch with a cookie jar that follows nothing by itself: the tests walk the Location
 * headers one by one, as a browser would, and can look at (or tamper with) each hop.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

export interface TestAccount {
  readonly email?: string
  readonly email_verified?: boolean
  readonly hd?: string
}

export interface TestIdp {
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** The account the next interaction signs in. */
  next(accountId: string): void
  close(): Promise<void>
}

export async function startTestIdp(input: { accounts: Record<string, TestAccount>; redirectUris: string[] }): Promise<TestIdp> {
  let nextAccount = ''
  const server = http.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = 'rankrelay-test'
  const clientSecret = `idp-secret-${'s'.repeat(40)}`
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: input.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    cookies: { keys: ['test-idp-cookie-key-0123456789'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'hd'], profile: ['name'] },
    // Email claims in the id_token (the callback also reads userinfo when a provider keeps them out).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = input.accounts[id]
      if (!account) return undefined
      return { accountId: id, claims: async () => ({ sub: id, name: id, ...account }) }
    },
    async loadExistingGrant(ctx: any) {
      const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client!.clientId, accountId: ctx.oidc.session!.accountId! })
      grant.addOIDCScope('openid email profile')
      await grant.save()
      return grant
    },
  })
  const callback = provider.callback()
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider
        .interactionFinished(req, res, { login: { accountId: nextAccount } }, { mergeWithLastSubmission: false })
        .catch((error: unknown) => {
          res.statusCode = 500
          res.end(String(error))
        })
      return
    }
    callback(req, res)
  })
  return {
    issuer,
    clientId,
    clientSecret,
    next: (accountId) => {
      nextAccount = accountId
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** fetch with a cookie jar (by name, as loopback hosts share cookies across ports), redirects not followed. */
export class CookieBrowser {
  readonly cookies = new Map<string, string>()

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    const response = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq).trim()
      const value = pair!.slice(eq + 1).trim()
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || (/^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]!) < Date.now()),
      )
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  /** Follows Location headers from `url` until one points under `stopAt` (returned, not fetched) or a page answers. */
  async followUntil(url: string, stopAt: string, max = 15): Promise<{ url: string; response: Response | null }> {
    let current = url
    for (let i = 0; i < max; i++) {
      if (current.startsWith(stopAt)) return { url: current, response: null }
      const response = await this.fetch(current)
      const location = response.headers.get('location')
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response }
      current = new URL(location, current).href
    }
    throw new Error(`more than ${max} redirects from ${url}`)
  }
}
