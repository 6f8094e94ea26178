/**
 * Turns a body's bytes into text the way a browser would pick the encoding: a byte-order mark first, then the
 * Content-Type charset, then a <meta charset> (or http-equiv) in the first 1024 bytes, else UTF-8. Bytes that
 * are invalid in that encoding become U+FFFD: a page with broken bytes is still a page, never an exception.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  return decoderFor(bytes, contentType).decode(bytes)
}

function decoderFor(bytes: Uint8Array, contentType: string | null): TextDecoder {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8')
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be')
  const declared =
    /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1] ??
    /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(Buffer.from(bytes.subarray(0, 1024)).toString('latin1'))?.[1]
  if (declared) {
    try {
      return new TextDecoder(declared.toLowerCase())
    } catch {
      // An encoding label TextDecoder does not know: UTF-8, as browsers fall back.
    }
  }
  return new TextDecoder('utf-8')
}
