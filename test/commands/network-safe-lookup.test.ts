/**
 * The connect-time lookup (commands/network/safe-lookup.ts) every outbound socket to an owner-supplied address
 * goes through (webhook deliveries, OIDC issuers): it judges each address a name resolves to by the URL policy,
 * so an AAAA answer in IPv4-compatible form (::7f00:1 is 127.0.0.1) is refused like the IPv4 address it carries.
 */
import t from 'tap'
import { PolicyRefusal, safeLookup } from '../../commands/network/safe-lookup.js'
import { EMPTY_ALLOW_LIST, parseAllowList } from '../../domain/webhooks/url-policy.js'

/** Runs the lookup as a socket would (all addresses) and answers its callback's error or addresses. */
function lookupAll(lookup: ReturnType<typeof safeLookup>, host: string): Promise<{ error: Error | null; addresses?: unknown }> {
  return new Promise((resolve) =>
    (lookup as any)(host, { all: true }, (error: Error | null, addresses?: unknown) => resolve({ error, addresses })),
  )
}

t.test('a name resolving to an IPv6 form of an internal IPv4 address is refused at connect time', async (t) => {
  for (const address of ['::7f00:1', '::a9fe:a9fe', '::a00:1', '::ffff:a9fe:a9fe', '64:ff9b::a00:1', '2002:a00:1::1']) {
    const lookup = safeLookup(async () => [address], EMPTY_ALLOW_LIST)
    const { error } = await lookupAll(lookup, 'rebind.example.com')
    t.ok(error instanceof PolicyRefusal, `${address} refused`)
    t.match(error?.message, /refused by the URL policy: rebind\.example\.com resolves to a refused address/)
  }
})

t.test('a public address, and an address the operator allowed, are handed to the socket', async (t) => {
  const publicLookup = safeLookup(async () => ['93.184.216.34', '::5db8:d822'], EMPTY_ALLOW_LIST)
  t.same(await lookupAll(publicLookup, 'hooks.example.com'), {
    error: null,
    addresses: [
      { address: '93.184.216.34', family: 4 },
      { address: '::5db8:d822', family: 6 },
    ],
  })
  const allowed = safeLookup(async () => ['127.0.0.1'], parseAllowList('127.0.0.1')!)
  t.same(await lookupAll(allowed, 'receiver.test'), { error: null, addresses: [{ address: '127.0.0.1', family: 4 }] })
})
