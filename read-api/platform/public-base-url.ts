import net from 'node:net'
import type { FastifyInstance } from 'fastify'

/**
 * Where a service listening on host:port is reached when BASE_URL does not say: a wildcard address
 * (0.0.0.0, ::) is shown as 127.0.0.1, an IPv6 address in brackets. ops/config.ts derives its default
 * BASE_URL by this rule too, so the address printed at start and the one in the documents agree.
 */
export function listenBaseUrl(host: string, port: number): string {
  const everywhere = host === '0.0.0.0' || host === '::'
  const shown = everywhere ? '127.0.0.1' : net.isIPv6(host) ? `[${host}]` : host
  return `http://${shown}:${port}`
}

/** The address of an app that is not listening (tests through inject): never a caller's choice either. */
const NOT_LISTENING = 'http://localhost'

/**
 * The service's public address, from configuration only: BASE_URL when set, else the address the HTTP
 * server listens on (PORT=0 picks a port at listen time, so it is read then, not at build time). Never the
 * request's Host header: that is the caller's to choose, and what is built from it (the OAuth issuer and
 * endpoints, WWW-Authenticate's resource_metadata, the documents served with Cache-Control: public, SAML and
 * OIDC URLs) would then be the caller's too, for everyone a shared cache serves. Never throws.
 */
export function publicBaseUrl(app: FastifyInstance, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '')
  const known = listening.get(app.server)
  if (known !== undefined) return known
  const address = app.server.address()
  if (address === null || typeof address !== 'object') return NOT_LISTENING
  const url = listenBaseUrl(address.address, address.port)
  listening.set(app.server, url)
  app.server.once('close', () => listening.delete(app.server))
  return url
}

/**
 * The listen address once known, per server: every RPC answer asks for it (WWW-Authenticate's metadata URL),
 * and server.address() is a system call that took 2% of the service's thread in the rank-history bench. A
 * server keeps its address until it closes; a closed one that listens again is asked afresh.
 */
const listening = new WeakMap<object, string>()
