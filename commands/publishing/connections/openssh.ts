import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto'

/**
 * ed25519 keys in OpenSSH's own formats, written by hand (node:crypto speaks PEM/DER and JWK, not OpenSSH):
 * the public key as one authorized_keys line (RFC 8709 §4: string "ssh-ed25519", string key), its SHA256
 * fingerprint as `ssh-keygen -l` prints it, and the private key as an unencrypted `openssh-key-v1` PEM
 * (PROTOCOL.key in OpenSSH's sources), which `ssh -i`, `ssh-keygen -y` and SFTP libraries read.
 */

const KEY_TYPE = 'ssh-ed25519'

/** SSH wire `string`: a uint32 big-endian length, then the bytes. */
function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value
  const length = Buffer.alloc(4)
  length.writeUInt32BE(bytes.length)
  return Buffer.concat([length, bytes])
}

const uint32 = (n: number) => {
  const b = Buffer.alloc(4)
  b.writeUInt32BE(n >>> 0)
  return b
}

/** The public key blob: string "ssh-ed25519", string <32-byte key>. */
export function publicKeyBlob(rawPublicKey: Buffer): Buffer {
  if (rawPublicKey.length !== 32) throw new Error(`an ed25519 public key is 32 bytes, not ${rawPublicKey.length}`)
  return Buffer.concat([sshString(KEY_TYPE), sshString(rawPublicKey)])
}

/** The authorized_keys line: `ssh-ed25519 <base64 blob> <comment>`. */
export function openSshPublicKey(rawPublicKey: Buffer, comment: string): string {
  return `${KEY_TYPE} ${publicKeyBlob(rawPublicKey).toString('base64')}${comment ? ` ${comment}` : ''}`
}

/** `SHA256:` and the unpadded base64 of the blob's sha256, as `ssh-keygen -l` shows it. */
export function openSshFingerprint(rawPublicKey: Buffer): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob(rawPublicKey)).digest('base64').replace(/=+$/, '')}`
}

/** The unencrypted openssh-key-v1 private key, PEM-armoured (70 base64 characters a line, as ssh-keygen writes). */
export function openSshPrivateKey(seed: Buffer, rawPublicKey: Buffer, comment: string, checkInt: number): string {
  const privatePart = Buffer.concat([
    uint32(checkInt),
    uint32(checkInt),
    sshString(KEY_TYPE),
    sshString(rawPublicKey),
    // OpenSSH keeps the 64-byte form: the seed followed by the public key.
    sshString(Buffer.concat([seed, rawPublicKey])),
    sshString(comment),
  ])
  // Padded with 1, 2, 3, … to the cipher block size (8 for "none").
  const padLength = (8 - (privatePart.length % 8)) % 8
  const padding = Buffer.from(Array.from({ length: padLength }, (_, i) => i + 1))
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicKeyBlob(rawPublicKey)),
    sshString(Buffer.concat([privatePart, padding])),
  ])
  const lines = body.toString('base64').match(/.{1,70}/g) ?? []
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`
}

export interface SshKeyPair {
  readonly publicKey: string
  readonly fingerprint: string
  /** The private key in OpenSSH format: seal it at once, never log or return it. */
  readonly privateKey: string
}

/** A fresh ed25519 key pair in OpenSSH formats, its public key line ending with `comment`. */
export function generateSshKeyPair(comment: string): SshKeyPair {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const raw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url')
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url')
  return {
    publicKey: openSshPublicKey(raw, comment),
    fingerprint: openSshFingerprint(raw),
    privateKey: openSshPrivateKey(seed, raw, comment, randomBytes(4).readUInt32BE()),
  }
}
