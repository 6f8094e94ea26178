/**
 * Requests refused before any route runs (Node's HTTP parser, fastify's router) answer the same error
 * envelope as every other refusal, {error, code, detail?, hint, request_id}, with the request id also in
 * X-Request-Id. Sent over a real socket: inject() cannot send a malformed request. Left to fastify they
 * would answer its default body ({"error":"Bad Request","message":"Client Error","statusCode":400}).
 */
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import t from 'tap'
import { startTestSystem } from '../support/system.js'

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes `request` on a fresh connection and reads one response (the server closes or sends Content-Length). */
function exchange(port: number, request: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = Buffer.alloc(0)
    const timer = setTimeout(
      () => finish(new Error(`no complete response in 5 s; got ${JSON.stringify(data.toString('latin1').slice(0, 300))}`)),
      5000,
    )
    const parsed = (): RawResponse | undefined => {
      const text = data.toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return undefined
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const body = text.slice(end + 4)
      const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length'])
      if (length !== undefined && Buffer.byteLength(body) < length) return undefined
      return { status: Number(statusLine!.split(' ')[1]), headers, body }
    }
    const finish = (error?: Error) => {
      clearTimeout(timer)
      socket.destroy()
      const response = parsed()
      if (response) resolve(response)
      else reject(error ?? new Error(`connection closed without a response; got ${JSON.stringify(data.toString('latin1').slice(0, 300))}`))
    }
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk])
      if (parsed()?.headers['content-length'] !== undefined) finish()
    })
    socket.on('close', () => finish())
    socket.on('error', () => finish())
    socket.write(request)
  })
}

const head = (lines: string[]) => `${lines.join('\r\n')}\r\n\r\n`

t.test('requests Node or the router refuse answer the error envelope with a code, a hint and the request id', async (t) => {
  const ts = await startTestSystem(t)
  await ts.app.listen({ port: 0, host: '127.0.0.1' })
  const port = (ts.app.server.address() as AddressInfo).port

  const cases: { what: string; request: string; status: number; code: string }[] = [
    {
      what: 'bad chunking',
      request: `${head([
        'POST /api/v1/rpc/get_all_clients HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Transfer-Encoding: chunked',
      ])}zz\r\n{}\r\n0\r\n\r\n`,
      status: 400,
      code: 'http_malformed',
    },
    {
      what: 'Content-Length with Transfer-Encoding',
      request: `${head([
        'POST /api/v1/rpc/get_all_clients HTTP/1.1',
        'Host: localhost',
        'Content-Type: application/json',
        'Content-Length: 2',
        'Transfer-Encoding: chunked',
      ])}2\r\n{}\r\n0\r\n\r\n`,
      status: 400,
      code: 'http_malformed',
    },
    {
      what: 'a malformed header',
      request: head(['GET /api/v1/health HTTP/1.1', 'Host: localhost', 'Bad Header: x']),
      status: 400,
      code: 'http_malformed',
    },
    { what: 'an unknown method', request: head(['FROB /api/v1/health HTTP/1.1', 'Host: localhost']), status: 400, code: 'http_malformed' },
    {
      what: 'a 16 KB URL',
      request: head([`GET /api/v1/db/clients?where_name=${'a'.repeat(16 * 1024)} HTTP/1.1`, 'Host: localhost']),
      status: 431,
      code: 'headers_too_large',
    },
    {
      what: 'an oversized header',
      request: head(['GET /api/v1/health HTTP/1.1', 'Host: localhost', `X-Padding: ${'a'.repeat(20 * 1024)}`]),
      status: 431,
      code: 'headers_too_large',
    },
    {
      what: 'a malformed percent-encoding in the path',
      request: head(['GET /api/v1/db/%E0%A4%A HTTP/1.1', 'Host: localhost', 'Connection: close']),
      status: 400,
      code: 'url_invalid',
    },
    {
      what: 'a path segment over the router limit',
      request: head([`POST /api/v1/rpc/${'m'.repeat(500)} HTTP/1.1`, 'Host: localhost', 'Content-Length: 0', 'Connection: close']),
      status: 414,
      code: 'url_too_long',
    },
    {
      what: 'a method HTTP knows but no route has',
      request: head(['PROPFIND /api/v1/health HTTP/1.1', 'Host: localhost', 'Connection: close']),
      status: 404,
      code: 'route_not_found',
    },
  ]
  for (const c of cases) {
    const response = await exchange(port, c.request)
    t.equal(response.status, c.status, `${c.what}: status ${c.status} (body ${response.body.slice(0, 200)})`)
    t.match(response.headers['content-type'] ?? '', /^application\/json/, `${c.what}: JSON`)
    let body: Record<string, unknown> = {}
    try {
      body = JSON.parse(response.body) as Record<string, unknown>
    } catch {
      t.fail(`${c.what}: the body is JSON (${response.body.slice(0, 200)})`)
    }
    t.equal(body.code, c.code, `${c.what}: code ${c.code}`)
    t.equal(typeof body.error, 'string', `${c.what}: error`)
    t.ok(typeof body.hint === 'string' && body.hint.length > 0, `${c.what}: a hint`)
    t.match(body.request_id, /^[A-Za-z0-9._:-]{1,128}$/, `${c.what}: a request id`)
    t.equal(response.headers['x-request-id'], body.request_id, `${c.what}: the same request id as X-Request-Id`)
    t.same(
      Object.keys(body).filter((k) => !['error', 'code', 'detail', 'hint', 'request_id'].includes(k)),
      [],
      `${c.what}: nothing beyond the envelope`,
    )
  }

  // The service still answers on a new connection.
  const health = await exchange(port, head(['GET /api/v1/health HTTP/1.1', 'Host: localhost', 'Connection: close']))
  t.ok(health.status === 200 || health.status === 503, `health still answers (${health.status})`)
})

t.test('every error body carries request_id, the X-Request-Id of its response (given by the caller or made up)', async (t) => {
  const ts = await startTestSystem(t)
  const given = await ts.app.inject({
    method: 'POST',
    url: '/api/v1/rpc/get_all_clients',
    headers: { 'content-type': 'application/json', 'x-request-id': 'caller-id-42' },
    payload: '{}',
  })
  t.equal(given.statusCode, 401)
  t.equal(given.json().request_id, 'caller-id-42', "the caller's id")
  t.equal(given.headers['x-request-id'], 'caller-id-42')
  for (const response of [
    await ts.rpc('no_such_method', {}),
    await ts.app.inject({ method: 'GET', url: '/no/such/route' }),
    await ts.app.inject({
      method: 'POST',
      url: '/api/v1/rpc/get_all_clients',
      headers: { authorization: `Bearer ${ts.platformKey}`, 'content-type': 'application/json' },
      payload: '{not json',
    }),
    await ts.app.inject({
      method: 'POST',
      url: '/api/v1/rpc/get_all_clients',
      headers: { authorization: `Bearer ${ts.platformKey}`, 'content-type': 'text/plain' },
      payload: 'x',
    }),
  ]) {
    const body = response.json()
    t.ok(response.statusCode >= 400, `an error (${response.statusCode} ${body.code})`)
    t.match(body.request_id, /^[0-9a-f-]{36}$/, `${body.code}: a made-up request id`)
    t.equal(body.request_id, response.headers['x-request-id'], `${body.code}: the response's X-Request-Id`)
  }
})
