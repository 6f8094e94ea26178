/**
 * A tiny cookie-keeping browser over app.inject() for the sign-in pages: it stores Set-Cookie values, sends
 * them back, and reads the CSRF token out of the last form it was shown.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { secretOfOtpauthUri, totp } from '../../commands/secrets/totp.js'

export class Browser {
  readonly cookies = new Map<string, string>()
  lastCsrf: string | null = null

  constructor(readonly app: FastifyInstance) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  #remember(response: LightMyRequestResponse): LightMyRequestResponse {
    const set = response.headers['set-cookie']
    for (const line of Array.isArray(set) ? set : set ? [set] : []) {
      const [pair] = line.split(';')
      const eq = pair!.indexOf('=')
      const name = pair!.slice(0, eq)
      const value = pair!.slice(eq + 1)
      if (/Max-Age=0/i.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const csrf = /name="csrf" value="([^"]+)"/.exec(response.body)
    if (csrf) this.lastCsrf = csrf[1]!
    return response
  }

  async get(url: string): Promise<LightMyRequestResponse> {
    return this.#remember(await this.app.inject({ method: 'GET', url, headers: this.cookies.size ? { cookie: this.cookieHeader } : {} }))
  }

  /** POSTs a form; the last CSRF token is added unless `csrf` is given (null: none at all). */
  async post(url: string, form: Record<string, string>, csrf?: string | null): Promise<LightMyRequestResponse> {
    const fields: Record<string, string> = { ...form }
    const token = csrf === undefined ? this.lastCsrf : csrf
    if (token !== null) fields.csrf = token
    return this.#remember(
      await this.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(this.cookies.size ? { cookie: this.cookieHeader } : {}) },
        payload: new URLSearchParams(fields).toString(),
      }),
    )
  }
}

export const unescapeHtml = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')

/** The otpauth:// URI and recovery codes an enrolment page shows. */
export function enrolmentOf(body: string): { uri: string; secret: Buffer; recoveryCodes: string[] } {
  const uri = unescapeHtml(/href="(otpauth:\/\/[^"]+)"/.exec(body)![1]!)
  const recoveryCodes = [...body.matchAll(/<li>([a-z0-9]{5}-[a-z0-9]{5})<\/li>/g)].map((m) => m[1]!)
  return { uri, secret: secretOfOtpauthUri(uri), recoveryCodes }
}

export const codeAt = (secret: Buffer, now: number) => totp(secret, now)

/**
 * Takes an invite's first step (sets the password) through its page: from then on the address signs in to
 * this account (an invite alone reserves it only in its own organization). Answers the page.
 */
export async function setInvitePassword(
  app: FastifyInstance,
  inviteUrl: string,
  password = 'a long enough password',
): Promise<LightMyRequestResponse> {
  const path = new URL(inviteUrl, 'http://invite.test').pathname
  const browser = new Browser(app)
  await browser.get(path)
  return browser.post(path, { password, confirm: password })
}
