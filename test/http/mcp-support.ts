/**
 * The MCP SDK's own client against the service listening on 127.0.0.1 (a real socket, as an MCP host would
 * connect), recording every HTTP answer so tests can look at status codes and headers too.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { TestSystem } from '../support/system.js'

export interface Recorded {
  readonly method: string
  readonly status: number
  readonly headers: Headers
}

export interface McpConnection {
  readonly client: Client
  /** Every HTTP exchange the client made, in order. */
  readonly exchanges: Recorded[]
}

/** The base URL of the listening app (listens once per test system). */
export async function listeningUrl(ts: TestSystem): Promise<string> {
  const address = ts.app.server.address()
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`
  return ts.app.listen({ host: '127.0.0.1', port: 0 })
}

/** Connects (initialize + initialized) with an optional bearer key; closes with the test. `query`: appended to the MCP URL (`tools=compact`). */
export async function connectMcp(
  t: { teardown(fn: () => unknown): void },
  ts: TestSystem,
  key: string | undefined,
  query = '',
): Promise<McpConnection> {
  const base = await listeningUrl(ts)
  const exchanges: Recorded[] = []
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/api/v1/mcp${query ? `?${query}` : ''}`), {
    requestInit: key === undefined ? {} : { headers: { Authorization: `Bearer ${key}` } },
    fetch: async (url, init) => {
      const response = await fetch(url, init)
      exchanges.push({ method: init?.method ?? 'GET', status: response.status, headers: response.headers })
      return response
    },
  })
  const client = new Client({ name: 'rankrelay-test', version: '1.0.0' })
  t.teardown(() => client.close())
  await client.connect(transport)
  return { client, exchanges }
}

/** A raw POST of a JSON-RPC body to /api/v1/mcp (for what the SDK client never sends). */
export function postMcp(ts: TestSystem, body: unknown, key?: string, headers: Record<string, string> = {}) {
  return ts.app.inject({
    method: 'POST',
    url: '/api/v1/mcp',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
      ...headers,
    },
    payload: JSON.stringify(body),
  })
}
