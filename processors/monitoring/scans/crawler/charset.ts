/**
 * Turns a body's bytes into text the way a browser would pick the encoding: a byte-order mark first, then the
 * Content-Type charset, then a <meta charset> (or http-equiv) in the first 1024 bytes, else UTF-8. Bytes that
 * are invalid in that encoding become U+FFFD: a page with broken bytes is still a page, never an exception.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | null): string {
  const decoder = decoderFor(bytes, contentType)
  const text = decoder.decode(bytes)
  // Node 20 decodes windows-1252 (what latin1/iso-8859-1/ascii labels mean on the web) as ISO-8859-1, leaving
  // 0x80–0x9F as C1 controls; browsers read them as the windows-1252 characters (€, curly quotes, dashes).
  return decoder.encoding === 'windows-1252' ? text.replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252[c.charCodeAt(0) - 0x80] ?? c) : text
}

const WINDOWS_1252 = [...'€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ']

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
