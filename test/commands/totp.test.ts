/**
 * The hand-written TOTP (commands/secrets/totp.ts) against RFC 6238 Appendix B's test vectors (8 digits,
 * SHA1/SHA256/SHA512 with their seeds), base32 both ways, the ±1 step window, and the otpauth:// URI.
 */
import t from 'tap'
import { base32Decode, base32Encode, hotp, matchTotp, otpauthUri, secretOfOtpauthUri, totp } from '../../commands/secrets/totp.js'

const SEED_SHA1 = Buffer.from('12345678901234567890', 'ascii')
const SEED_SHA256 = Buffer.from('12345678901234567890123456789012', 'ascii')
const SEED_SHA512 = Buffer.from('1234567890123456789012345678901234567890123456789012345678901234', 'ascii')

// RFC 6238 Appendix B: time (s), then the SHA1, SHA256 and SHA512 codes.
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
]

t.test('RFC 6238 test vectors', async (t) => {
  for (const [seconds, sha1, sha256, sha512] of VECTORS) {
    t.equal(totp(SEED_SHA1, seconds * 1000, { digits: 8 }), sha1, `SHA1 at ${seconds}`)
    t.equal(totp(SEED_SHA256, seconds * 1000, { digits: 8, algorithm: 'sha256' }), sha256, `SHA256 at ${seconds}`)
    t.equal(totp(SEED_SHA512, seconds * 1000, { digits: 8, algorithm: 'sha512' }), sha512, `SHA512 at ${seconds}`)
  }
})

t.test('RFC 4226 HOTP vectors (6 digits)', async (t) => {
  const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489']
  expected.forEach((code, counter) => {
    t.equal(hotp(SEED_SHA1, counter), code, `counter ${counter}`)
  })
})

t.test('base32 round-trips and matches RFC 4648', async (t) => {
  t.equal(base32Encode(Buffer.from('foobar')), 'MZXW6YTBOI')
  t.same(base32Decode('mzxw6ytboi======'), Buffer.from('foobar'))
  t.equal(base32Encode(SEED_SHA1), 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')
  t.throws(() => base32Decode('not*base32'))
})

t.test('matchTotp accepts the current step and one either side, and says which', async (t) => {
  const now = 1_700_000_000_000
  const step = Math.floor(now / 30_000)
  t.equal(matchTotp(SEED_SHA1, totp(SEED_SHA1, now), now), step)
  t.equal(matchTotp(SEED_SHA1, totp(SEED_SHA1, now - 30_000), now), step - 1)
  t.equal(matchTotp(SEED_SHA1, totp(SEED_SHA1, now + 30_000), now), step + 1)
  t.equal(matchTotp(SEED_SHA1, totp(SEED_SHA1, now - 90_000), now), null, 'three steps old: refused')
  t.equal(matchTotp(SEED_SHA1, 'abcdef', now), null)
  t.equal(matchTotp(SEED_SHA1, '12345', now), null)
})

t.test('otpauth URI carries issuer, account and the base32 secret', async (t) => {
  const uri = otpauthUri({ issuer: 'RankRelay', account: 'ann@example.com', secret: SEED_SHA1 })
  t.match(uri, /^otpauth:\/\/totp\/RankRelay:ann%40example\.com\?/)
  t.match(uri, /secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ/)
  t.match(uri, /algorithm=SHA1&digits=6&period=30/)
  t.same(secretOfOtpauthUri(uri), SEED_SHA1)
})
