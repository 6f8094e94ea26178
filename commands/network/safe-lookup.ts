import type { LookupFunction } from 'node:net'
import net from 'node:net'
import { hostAllowedByName, refusalOfAddress, type AllowList } from '../../domain/webhooks/url-policy.js'
import type { Resolver } from '../webhooks.js'

/** A connection the URL policy refused at connect time; the request fails with this message. */
export class PolicyRefusal extends Error {
  readonly code = 'EWEBHOOKPOLICY'
  constructor(message: string) {
    super(message)
    this.name = 'PolicyRefusal'
  }
}

/**
 * The `lookup` every outbound socket to an owner-supplied address connects through (webhook deliveries,
 * requests to an OIDC identity provider): it resolves the name itself and hands the socket
 * only addresses the policy allows, so the address checked is the address connected to — a DNS answer that
 * changes between a check and the connect (rebinding) cannot slip through. Any refused address refuses the
 * whole name (a name that resolves to one public and one private address is not to be trusted).
 */
export function safeLookup(resolve: Resolver, allow: AllowList): LookupFunction {
  return ((hostname: string, options: { all?: boolean } | number, callback: (...args: any[]) => void) => {
    const all = typeof options === 'object' && options !== null && options.all === true
    const host = hostname.replace(/^\[|\]$/g, '')
    resolve(host).then(
      (addresses) => {
        if (addresses.length === 0) return callback(Object.assign(new Error(`${host} does not resolve`), { code: 'ENOTFOUND' }))
        if (!hostAllowedByName(host, allow)) {
          for (const address of addresses) {
            const reason = refusalOfAddress(address, allow)
            if (reason !== null)
              return callback(new PolicyRefusal(`refused by the URL policy: ${host} resolves to a refused address: ${reason}`))
          }
        }
        const entries = addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }))
        if (all) callback(null, entries)
        else callback(null, entries[0]!.address, entries[0]!.family)
      },
      (error: unknown) => callback(error),
    )
  }) as LookupFunction
}
