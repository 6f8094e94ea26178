import { createHmac, randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { parseServiceKey } from '../../commands/secrets/service-key.js'
import { parseAllowList } from '../../domain/webhooks/url-policy.js'
import type { TestSystem } from '../support/system.js'

/** One fixed service key for every system of a test file (a restarted system must open the same secrets). */
export const TEST_SERVICE_KEY = parseServiceKey(Buffer.alloc(32, 7).toString('base64'))!
export const LOOPBACK_ALLOWED = parseAllowList('127.0.0.1')!

export interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly raw: string
  readonly body: any
  readonly path: string
}

/** What the receiver does with the n-th request (0-based): a status, or hang (never answer). */
export type Script = (n: number, request: Received) => { status: number; headers?: Record<string, string> } | 'hang'

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as scripted. */
export async function startReceiver(t: { teardown(fn: () => unknown): void }, script: Script = () => ({ status: 200 })) {
  const received: Received[] = []
  const hanging: http.ServerResponse[] = []
  let current = script
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown
      try {
        body = JSON.parse(raw)
      } catch {
        body = undefined
      }
      const request = { headers: req.headers, raw, body, path: req.url ?? '/' }
      const answer = current(received.length, request)
      received.push(request)
      if (answer === 'hang') {
        hanging.push(res)
        return
      }
      res.writeHead(answer.status, answer.headers ?? {})
      res.end('ok')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  t.teardown(async () => {
    for (const res of hanging) res.destroy()
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    setScript(next: Script) {
      current = next
    },
  }
}

/** The receiver side of the signature scheme, written independently of the service's code. */
export function verifySignature(secret: string, request: Received, nowSeconds: number, toleranceSeconds = 300): boolean {
  const header = String(request.headers['x-service-signature'] ?? '')
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header)
  if (!match) return false
  const t = Number(match[1])
  if (Math.abs(nowSeconds - t) > toleranceSeconds) return false
  const expected = createHmac('sha256', secret).update(`${match[1]}.${request.raw}`).digest('hex')
  return expected === match[2]
}

/** Records a recorded-elsewhere event on the log as its area would (the jobs area emits JobCompleted on job-<id>). */
export async function appendSourceEvent(ts: TestSystem, stream: string, type: string, data: unknown, orgId: number | null, at: Date) {
  return ts.system.store.append(
    stream,
    [
      {
        type,
        data,
        metadata: {
          org_id: orgId,
          actor: { kind: 'system', id: 'test' },
          correlation_id: randomUUID(),
          causation_id: null,
          request_id: null,
          occurred_at: at.toISOString(),
          schema_version: 1,
        },
      },
    ],
    'any',
  )
}

export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

/** A hand-moved clock for the dispatcher and the commands. */
export function handClock(start: string) {
  let now = new Date(start)
  return {
    now: () => now,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms)
    },
  }
}
