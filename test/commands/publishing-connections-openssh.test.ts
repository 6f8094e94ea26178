/**
 * The OpenSSH encodings written by hand: against RFC 8032's first ed25519 test vector (the public key line and
 * fingerprint ssh-keygen gives for it), the private key's openssh-key-v1 layout, and, when ssh-keygen is on
 * the machine, a fresh pair read back by it (its fingerprint, and the public key derived from the private one).
 */
import { execFileSync } from 'node:child_process'
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import t from 'tap'
import {
  generateSshKeyPair,
  openSshFingerprint,
  openSshPrivateKey,
  openSshPublicKey,
} from '../../commands/publishing/connections/openssh.js'

// RFC 8032 §7.1, TEST 1.
const SEED = Buffer.from('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60', 'hex')
const PUBLIC = Buffer.from('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', 'hex')

t.test('the RFC 8032 vector: the authorized_keys line and the fingerprint ssh-keygen -l prints', async (t) => {
  t.equal(
    openSshPublicKey(PUBLIC, 'rfc8032-test-1'),
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINdamAGCsQq31Uv+08lkBzoO4XLz2qYjJa8CGmj3B1Ea rfc8032-test-1',
  )
  t.equal(openSshFingerprint(PUBLIC), 'SHA256:bbXpuKG6zhzdmnxq256TlqzFBzRl2f6OOg722cYNbU8')
  t.throws(() => openSshPublicKey(PUBLIC.subarray(1), 'x'), /32 bytes/)
})

t.test('the private key: openssh-key-v1, unencrypted, one key, check ints equal, padded to 8', async (t) => {
  const pem = openSshPrivateKey(SEED, PUBLIC, 'c', 0x01020304)
  const lines = pem.trim().split('\n')
  t.equal(lines[0], '-----BEGIN OPENSSH PRIVATE KEY-----')
  t.equal(lines.at(-1), '-----END OPENSSH PRIVATE KEY-----')
  t.ok(
    lines.slice(1, -1).every((l) => l.length <= 70),
    'lines of at most 70 characters',
  )
  const body = Buffer.from(lines.slice(1, -1).join(''), 'base64')
  t.equal(body.subarray(0, 15).toString('latin1'), 'openssh-key-v1\0')
  let at = 15
  const str = () => {
    const n = body.readUInt32BE(at)
    const value = body.subarray(at + 4, at + 4 + n)
    at += 4 + n
    return value
  }
  t.equal(str().toString(), 'none', 'cipher none')
  t.equal(str().toString(), 'none', 'kdf none')
  t.equal(str().length, 0, 'no kdf options')
  t.equal(body.readUInt32BE(at), 1, 'one key')
  at += 4
  str() // the public blob
  const priv = str()
  t.equal(priv.length % 8, 0, 'the private section is padded to the block size')
  t.equal(priv.readUInt32BE(0), priv.readUInt32BE(4), 'the two check ints match')
  t.equal(at, body.length, 'nothing after the private section')
  t.ok(priv.includes(Buffer.concat([SEED, PUBLIC])), 'the 64-byte secret: seed then public key')
})

const keygen = ['/usr/bin/ssh-keygen', '/usr/local/bin/ssh-keygen'].find((p) => fs.existsSync(p))

t.test('a fresh pair: the private key signs what the public line verifies; ssh-keygen reads both where it is installed', async (t) => {
  const pair = generateSshKeyPair('rankrelay-client-7')
  const raw = Buffer.from(pair.publicKey.split(' ')[1]!, 'base64').subarray(-32)
  t.equal(openSshFingerprint(raw), pair.fingerprint)
  const body = Buffer.from(pair.privateKey.split('\n').slice(1, -2).join(''), 'base64')
  // The 64-byte secret (seed, then public key) sits before the comment; the seed is its first half.
  const secretAt = body.indexOf(raw, body.lastIndexOf(Buffer.from('ssh-ed25519')) + 11 + 4 + 32) - 32
  const seed = body.subarray(secretAt, secretAt + 32)
  const privateKey = createPrivateKey({
    key: { kty: 'OKP', crv: 'Ed25519', d: seed.toString('base64url'), x: raw.toString('base64url') },
    format: 'jwk',
  })
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' })
  const message = Buffer.from('publish me')
  t.ok(verify(null, message, publicKey, sign(null, message, privateKey)), 'a signature by the sealed half verifies with the public line')
  if (!keygen) return
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rr-openssh-'))
  t.teardown(() => fs.rmSync(dir, { recursive: true, force: true }))
  fs.writeFileSync(path.join(dir, 'id'), pair.privateKey, { mode: 0o600 })
  fs.writeFileSync(path.join(dir, 'id.pub'), `${pair.publicKey}\n`)
  const listed = execFileSync(keygen, ['-l', '-f', path.join(dir, 'id.pub')]).toString()
  t.equal(listed.trim(), `256 ${pair.fingerprint} rankrelay-client-7 (ED25519)`)
  t.equal(
    execFileSync(keygen, ['-y', '-f', path.join(dir, 'id')])
      .toString()
      .trim(),
    pair.publicKey,
  )
})
