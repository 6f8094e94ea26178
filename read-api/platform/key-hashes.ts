import { hashApiKey } from '../../commands/api-keys.js'

/** How many distinct keys a process remembers the hash of; past that it starts over (a handful of keys is the norm). */
const MAX_KEYS = 1024

/**
 * sha256 of the API keys this process has seen, so a busy key is hashed once rather than on every request
 * (hashing was about 2-3% of a get_client request's main-thread time). Only the hash is remembered, never the
 * verdict: every request still looks its key up (and counts it) in a statement that starts after it arrived,
 * so a revoked key is refused exactly as before. Bounded, so a caller cycling through made-up keys cannot grow it.
 */
export class KeyHashes {
  private readonly hashes = new Map<string, string>()

  of(token: string): string {
    let hash = this.hashes.get(token)
    if (hash === undefined) {
      hash = hashApiKey(token)
      if (this.hashes.size >= MAX_KEYS) this.hashes.clear()
      this.hashes.set(token, hash)
    }
    return hash
  }
}
