/**
 * The webhook URL policy (domain/webhooks/url-policy.ts): a table of hostile URLs, every one refused, in
 * every form an address can be written; public https URLs pass; the allow-list admits exactly what it names.
 */
import t from 'tap'
import { DomainError } from '../../domain/shared/errors.js'
import { checkWebhookUrl, EMPTY_ALLOW_LIST, parseAllowList, refusalOfAddress } from '../../domain/webhooks/url-policy.js'

const HOSTILE = [
  // loopback, every spelling
  'https://127.0.0.1/',
  'https://127.1/',
  'https://127.0.1/',
  'https://2130706433/',
  'https://0x7f000001/',
  'https://0x7f.0.0.1/',
  'https://0177.0.0.1/',
  'https://017700000001/',
  'https://%31%32%37.0.0.1/',
  'https://[::1]/',
  'https://[0:0:0:0:0:0:0:1]/',
  'https://[::ffff:127.0.0.1]/',
  'https://[::ffff:7f00:1]/',
  'https://localhost/',
  'https://LOCALHOST./',
  'https://api.localhost/',
  'http://localhost:8080/',
  // unspecified
  'https://0.0.0.0/',
  'https://0/',
  'https://[::]/',
  // private
  'https://10.0.0.1/',
  'https://10.255.255.255/',
  'https://172.16.0.1/',
  'https://172.31.255.254/',
  'https://192.168.1.1/',
  'https://0xc0a80101/',
  'https://3232235777/',
  'https://[::ffff:10.0.0.1]/',
  'https://[::ffff:192.168.0.1]/',
  // link-local and cloud metadata
  'https://169.254.169.254/latest/meta-data/',
  'https://[fe80::1]/',
  'https://metadata.google.internal/',
  'https://[::ffff:169.254.169.254]/',
  // CGNAT, multicast, broadcast, reserved
  'https://100.64.0.1/',
  'https://100.127.255.254/',
  'https://224.0.0.1/',
  'https://239.255.255.250/',
  'https://255.255.255.255/',
  'https://240.0.0.1/',
  'https://[ff02::1]/',
  // IPv6 unique-local, NAT64 and 6to4 wrapping private IPv4
  'https://[fd00::1]/',
  'https://[fc00::abcd]/',
  'https://[64:ff9b::a00:1]/',
  'https://[2002:a00:1::]/',
  // IPv4-compatible IPv6 (::/96): the WHATWG parser writes [::127.0.0.1] as [::7f00:1], which ipaddr.js calls
  // plain unicast; the low 32 bits are the IPv4 address
  'https://[::127.0.0.1]/',
  'https://[::7f00:1]/',
  'https://[::a9fe:a9fe]/',
  'https://[::10.0.0.1]/',
  'https://[::192.168.1.1]/',
  'https://[::100.64.0.1]/',
  'https://[::0.0.0.1]/',
  // the other forms that embed an IPv4 address, each wrapping a private one
  'https://[::ffff:0:a00:1]/',
  'https://[64:ff9b::127.0.0.1]/',
  'https://[2002:7f00:1::1]/',
  // local names, schemes, credentials
  'https://intranet/',
  'https://printer.local/',
  'https://router.lan/',
  'https://nas.home.arpa/',
  'http://hooks.example.com/',
  'ftp://hooks.example.com/',
  'file:///etc/passwd',
  'gopher://hooks.example.com/',
  'javascript:alert(1)',
  'https://user:pass@hooks.example.com/',
  'https://hooks.example.com:0/',
  'not a url',
]

t.test(`${HOSTILE.length} hostile URLs are all refused`, async (t) => {
  t.ok(HOSTILE.length >= 40)
  for (const url of HOSTILE) {
    let caught: unknown
    try {
      checkWebhookUrl(url, EMPTY_ALLOW_LIST)
    } catch (error) {
      caught = error
    }
    t.ok(
      caught instanceof DomainError && caught.code === 'webhook_url_refused',
      `${url} refused${caught instanceof DomainError ? `: ${caught.detail}` : ''}`,
    )
  }
})

t.test('public https URLs pass, normalized', async (t) => {
  t.same(checkWebhookUrl('https://hooks.example.com/in?x=1#frag', EMPTY_ALLOW_LIST), {
    url: 'https://hooks.example.com/in?x=1',
    host: 'hooks.example.com',
    literal: false,
  })
  t.same(checkWebhookUrl('https://93.184.216.34:8443/h', EMPTY_ALLOW_LIST), {
    url: 'https://93.184.216.34:8443/h',
    host: '93.184.216.34',
    literal: true,
  })
  t.equal(checkWebhookUrl('https://[2606:4700::1111]/', EMPTY_ALLOW_LIST).host, '2606:4700::1111')
})

t.test('addresses a name resolves to are judged the same way', async (t) => {
  for (const address of [
    '127.0.0.1',
    '10.1.2.3',
    '::1',
    '::ffff:10.0.0.1',
    'fd12::1',
    '169.254.1.1',
    '100.64.1.1',
    '0.0.0.0',
    'nonsense',
  ]) {
    t.not(refusalOfAddress(address, EMPTY_ALLOW_LIST), null, `${address} refused`)
  }
  t.equal(refusalOfAddress('93.184.216.34', EMPTY_ALLOW_LIST), null)
  t.equal(refusalOfAddress('2606:4700::1111', EMPTY_ALLOW_LIST), null)
})

t.test('an IPv6 address that embeds an IPv4 address is judged as that IPv4 address', async (t) => {
  for (const address of [
    '::7f00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::a00:1',
    '::ffff:a00:1',
    '::ffff:0:a00:1',
    '64:ff9b::a9fe:a9fe',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:101::',
  ]) {
    const reason = refusalOfAddress(address, EMPTY_ALLOW_LIST)
    t.not(reason, null, `${address} refused`)
  }
  t.match(
    refusalOfAddress('::a9fe:a9fe', EMPTY_ALLOW_LIST),
    /169\.254\.169\.254 .*linkLocal/,
    'the reason names the IPv4 address and its range',
  )
  t.match(refusalOfAddress('::7f00:1', EMPTY_ALLOW_LIST), /127\.0\.0\.1 .*loopback/)
  t.equal(refusalOfAddress('::5db8:d822', EMPTY_ALLOW_LIST), null, 'an IPv4-compatible public address is the public address 93.184.216.34')
  t.equal(refusalOfAddress('::ffff:5db8:d822', EMPTY_ALLOW_LIST), null, 'so is its IPv4-mapped form')
  t.not(refusalOfAddress('::1', EMPTY_ALLOW_LIST), null, '::1 is IPv6 loopback, not 0.0.0.1')
  t.not(refusalOfAddress('64:ff9b::5db8:d822', EMPTY_ALLOW_LIST), null, 'NAT64 and 6to4 stay refused whatever they wrap')
  t.not(refusalOfAddress('2002:5db8:d822::1', EMPTY_ALLOW_LIST), null)
})

t.test('WEBHOOK_ALLOWED_HOSTS admits exactly what it names, http included', async (t) => {
  const allow = parseAllowList('127.0.0.1, receiver.test, 10.8.0.0/16')!
  t.equal(checkWebhookUrl('http://127.0.0.1:4000/h', allow).url, 'http://127.0.0.1:4000/h')
  t.equal(checkWebhookUrl('http://receiver.test/h', allow).host, 'receiver.test')
  t.equal(refusalOfAddress('10.8.3.4', allow), null)
  t.equal(refusalOfAddress('::ffff:127.0.0.1', allow), null, 'the IPv4-mapped form of an allowed address')
  t.not(refusalOfAddress('10.9.0.1', allow), null, 'outside the CIDR')
  t.throws(() => checkWebhookUrl('http://127.0.0.2/', allow), { code: 'webhook_url_refused' }, 'only the address named')
  t.throws(
    () => checkWebhookUrl('http://localhost/', allow),
    { code: 'webhook_url_refused' },
    'localhost by name is not 127.0.0.1 by address',
  )
  t.equal(parseAllowList('10.0.0.0/99'), null)
  t.equal(parseAllowList('https://x'), null)
  t.same(parseAllowList(''), EMPTY_ALLOW_LIST)
})
