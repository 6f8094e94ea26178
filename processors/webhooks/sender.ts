import http from 'node:http'
import https from 'node:https'
import { checkWebhookUrl, type AllowList } from '../../domain/webhooks/url-policy.js'
import type { Resolver } from '../../commands/webhooks.js'
import { PolicyRefusal, safeLookup } from '../../commands/network/safe-lookup.js'
import { signatureHeader } from './signature.js'

export interface OutgoingDelivery {
  readonly url: string
  readonly deliveryId: number
  readonly event: string
  readonly body: string
  readonly secret: string
  readonly unixSeconds: number
}

export interface SendOutcome {
  readonly succeeded: boolean
  /** The receiver's status; null when none came (timeout, refused connection, URL policy). */
  readonly statusCode: number | null
  readonly error: string | null
  readonly durationMs: number
}

/** How much of a receiver's answer is read (and thrown away) before the socket is reused or closed. */
const MAX_RESPONSE_BYTES = 64 * 1024

/**
 * Posts signed deliveries. Keep-alive agents (one per scheme) whose sockets connect only through the
 * policy-checked lookup; redirects are never followed (a 3xx is a failure); the whole exchange must end
 * within `timeoutMs`. `send` never throws: every outcome is a SendOutcome.
 */
export class WebhookSender {
  readonly #allow: AllowList
  readonly #timeoutMs: number
  readonly #agents: { http: http.Agent; https: https.Agent }

  constructor(options: { resolve: Resolver; allow: AllowList; timeoutMs: number; maxSockets: number; clock?: () => number }) {
    this.#allow = options.allow
    this.#timeoutMs = options.timeoutMs
    const lookup = safeLookup(options.resolve, options.allow)
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets, lookup }
    this.#agents = { http: new http.Agent(agentOptions), https: new https.Agent(agentOptions) }
  }

  async send(delivery: OutgoingDelivery): Promise<SendOutcome> {
    const started = performance.now()
    const done = (statusCode: number | null, error: string | null): SendOutcome => ({
      succeeded: error === null && statusCode !== null && statusCode >= 200 && statusCode < 300,
      statusCode,
      error,
      durationMs: Math.max(0, Math.round(performance.now() - started)),
    })
    let url: URL
    try {
      // Literal addresses never reach the lookup: the policy judges them here, on every attempt.
      url = new URL(checkWebhookUrl(delivery.url, this.#allow).url)
    } catch (error) {
      return done(null, `refused by the URL policy: ${(error as { detail?: string }).detail ?? (error as Error).message}`)
    }
    const transport = url.protocol === 'https:' ? https : http
    const agent = url.protocol === 'https:' ? this.#agents.https : this.#agents.http
    return new Promise<SendOutcome>((resolve) => {
      let settled = false
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resolve(done(statusCode, error))
      }
      const request = transport.request(url, {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(delivery.body),
          'user-agent': 'RankRelay-Webhooks/1',
          'x-service-event': delivery.event,
          'x-service-delivery': String(delivery.deliveryId),
          'x-service-timestamp': String(delivery.unixSeconds),
          'x-service-signature': signatureHeader(delivery.secret, delivery.unixSeconds, delivery.body),
        },
      })
      const timer = setTimeout(() => {
        finish(null, `no answer within ${Math.round(this.#timeoutMs / 1000)} s`)
        request.destroy()
      }, this.#timeoutMs)
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof PolicyRefusal || error.code === 'EWEBHOOKPOLICY') return finish(null, error.message)
        finish(null, describeNetworkError(error))
      })
      request.on('response', (response) => {
        const status = response.statusCode ?? 0
        let read = 0
        response.on('data', (chunk: Buffer) => {
          read += chunk.length
          if (read > MAX_RESPONSE_BYTES) response.destroy()
        })
        const settle = () => {
          if (status >= 300 && status < 400) finish(status, `redirect (${status}) not followed`)
          else if (status >= 200 && status < 300) finish(status, null)
          else finish(status, `HTTP ${status}`)
        }
        response.on('end', settle)
        response.on('close', settle)
        response.on('error', settle)
      })
      request.end(delivery.body)
    })
  }

  close(): void {
    this.#agents.http.destroy()
    this.#agents.https.destroy()
  }
}

function describeNetworkError(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ECONNRESET':
      return 'connection reset'
    case 'ENOTFOUND':
      return 'host not found'
    case 'ETIMEDOUT':
      return 'connect timed out'
    default:
      return (error.code ? `${error.code}: ` : '') + (error.message || 'request failed').slice(0, 300)
  }
}
