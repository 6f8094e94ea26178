/**
 * A local stand-in for a provider's HTTP API on 127.0.0.1: it records every request the SDK sends and
 * answers with recorded-style responses, so the adapters run against the providers' real wire format
 * without any traffic leaving the machine.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: any
}

export interface Reply {
  readonly status?: number
  readonly headers?: Record<string, string>
  /** A string is sent as is; anything else as JSON. */
  readonly body?: unknown
}

/** Answers a request (possibly later); undefined falls through to the next route, then the default reply (404). */
export type Route = (request: RecordedRequest) => Reply | undefined | Promise<Reply | undefined>

export interface ProviderServer {
  readonly origin: string
  readonly requests: RecordedRequest[]
  /** Replies for the next requests matching `match`, in order; when used up, `fallback` answers. */
  enqueue(match: (r: RecordedRequest) => boolean, ...replies: Reply[]): void
  /** A standing route, consulted after the queued replies. */
  route(route: Route): void
  close(): Promise<void>
}

const here = path.dirname(fileURLToPath(import.meta.url))

/** A recorded provider response from test/processors/aeo/fixtures (as text, so tests can rewrite hosts). */
export function fixtureText(name: string): string {
  return fs.readFileSync(path.join(here, 'fixtures', name), 'utf8')
}

export function fixture(name: string): any {
  return JSON.parse(fixtureText(name))
}

export async function startProviderServer(t: { teardown(fn: () => unknown): void }): Promise<ProviderServer> {
  const requests: RecordedRequest[] = []
  const queue: Array<{ match: (r: RecordedRequest) => boolean; reply: Reply }> = []
  const routes: Route[] = []
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      let body: unknown = raw
      try {
        body = raw === '' ? undefined : JSON.parse(raw)
      } catch {
        // keep the raw text
      }
      const request: RecordedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, body }
      requests.push(request)
      const queued = queue.findIndex((q) => q.match(request))
      let reply: Reply | undefined
      if (queued >= 0) reply = queue.splice(queued, 1)[0]!.reply
      for (const route of routes) {
        if (reply) break
        reply = await route(request)
      }
      reply ??= { status: 404, body: { error: { message: `no reply for ${request.method} ${request.url}` } } }
      const text = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body)
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers })
      res.end(request.method === 'HEAD' ? undefined : text)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  t.teardown(close)
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    enqueue(match, ...replies) {
      for (const reply of replies) queue.push({ match, reply })
    },
    route(route) {
      routes.push(route)
    },
    close,
  }
}
