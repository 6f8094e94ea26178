import { createHmac, randomBytes } from 'node:crypto'

/**
 * TOTP (RFC 6238) over HMAC-SHA1 (RFC 4226 dynamic truncation), 30-second steps, 6 digits: what every
 * authenticator app computes from an otpauth:// URI. Hand-written on node:crypto; the RFC 6238 test vectors
 * pin it (test/commands/totp.test.ts).
 */
export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
/** Codes of the previous and next step are accepted too (clock skew between phone and server). */
export const TOTP_WINDOW = 1

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function base32Encode(bytes: Buffer): string {
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31]
  return out
}

/** Decodes base32 (case-insensitive; spaces and padding ignored). Throws on another character. */
export function base32Decode(text: string): Buffer {
  const clean = text.toUpperCase().replace(/[\s=]/g, '')
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const ch of clean) {
    const index = BASE32.indexOf(ch)
    if (index < 0) throw new Error('not base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** HOTP (RFC 4226) with the given hash; TOTP is HOTP of the time step. */
export function hotp(secret: Buffer, counter: number, digits = TOTP_DIGITS, algorithm: 'sha1' | 'sha256' | 'sha512' = 'sha1'): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const mac = createHmac(algorithm, secret).update(message).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
  return String(binary % 10 ** digits).padStart(digits, '0')
}

export const totpStep = (timeMs: number, period = TOTP_PERIOD_SECONDS) => Math.floor(timeMs / 1000 / period)

/** The code for a time (ms since epoch). */
export function totp(
  secret: Buffer,
  timeMs: number,
  options: { digits?: number; period?: number; algorithm?: 'sha1' | 'sha256' | 'sha512' } = {},
): string {
  return hotp(secret, totpStep(timeMs, options.period), options.digits ?? TOTP_DIGITS, options.algorithm)
}

/**
 * The time step whose code matches, within ±TOTP_WINDOW steps of now; null when none does. The caller keeps
 * the step so that a code is never accepted twice.
 */
export function matchTotp(secret: Buffer, code: string, nowMs: number): number | null {
  const typed = code.replace(/\s/g, '')
  if (!/^\d{6}$/.test(typed)) return null
  const current = totpStep(nowMs)
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    if (step >= 0 && hotp(secret, step) === typed) return step
  }
  return null
}

/** A fresh secret: 20 random bytes (160 bits, RFC 4226's recommendation). */
export const generateTotpSecret = () => randomBytes(20)

/** The otpauth:// URI authenticator apps import (Key Uri Format): issuer, account, secret, SHA1, 6 digits, 30 s. */
export function otpauthUri(input: { issuer: string; account: string; secret: Buffer }): string {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.account)}`
  const query = new URLSearchParams({
    secret: base32Encode(input.secret),
    issuer: input.issuer,
    algorithm: 'SHA1',
    digits: String(TOTP_DIGITS),
    period: String(TOTP_PERIOD_SECONDS),
  })
  return `otpauth://totp/${label}?${query.toString()}`
}

/** Reads the secret back from an otpauth:// URI (tests and scripts that complete a first sign-in). */
export function secretOfOtpauthUri(uri: string): Buffer {
  const secret = new URL(uri).searchParams.get('secret')
  if (!secret) throw new Error('no secret in the otpauth URI')
  return base32Decode(secret)
}
