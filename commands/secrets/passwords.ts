import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * Password hashing with scrypt (node:crypto). The stored form carries its parameters and salt,
 * `scrypt$N$r$p$<salt>$<hash>`, so the cost can be raised later without invalidating old hashes.
 */
const N = 16384
const R = 8
const P = 1
const KEY_LENGTH = 32
// 128 * N * r bytes of memory, plus headroom.
const MAXMEM = 64 * 1024 * 1024

function scrypt(password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCallback(password, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const hash = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N, r: R, p: P, maxmem: MAXMEM })
  return ['scrypt', N, R, P, salt.toString('base64url'), hash.toString('base64url')].join('$')
}

/** True when the password matches the stored hash. Never throws for a malformed hash (false). */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0) || n > 1 << 20) return false
  const expected = Buffer.from(parts[5]!, 'base64url')
  const actual = await scrypt(password.normalize('NFKC'), Buffer.from(parts[4]!, 'base64url'), expected.length, {
    N: n,
    r,
    p,
    maxmem: MAXMEM,
  })
  return actual.length === expected.length && timingSafeEqual(actual, expected)
}

/**
 * A hash nobody's password matches: checked when the email is unknown so that an unknown email costs the
 * same scrypt as a wrong password (no account enumeration by timing).
 */
export const DUMMY_PASSWORD_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_LENGTH, 1).toString('base64url')}`

/** A generated password for the operator's create-user: 24 base64url characters (144 bits). */
export const generatePassword = () => randomBytes(18).toString('base64url')
