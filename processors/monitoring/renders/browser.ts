// playwright-core is imported when a browser is launched, not with the app (most processes never render).
import type { Browser } from 'playwright-core'
import { DomainError } from '../../../domain/shared/errors.js'

/**
 * Launches the headless Chromium a render scan drives. Every request a page makes is intercepted and fetched
 * through the policy (request-guard.ts); these flags close what interception does not see, so Chromium has no
 * network of its own: WebSocket and any other unrouted connection go to a proxy that does not exist
 * (127.0.0.1:9, loopback included, `<-loopback>`), host names resolve to nothing, WebRTC sends no UDP, and
 * no background service (sync, component updates, DNS prefetch) runs.
 */
export const RENDER_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--dns-prefetch-disable',
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
]

export async function launchRenderBrowser(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core')
  try {
    return await chromium.launch({ executablePath, headless: true, args: RENDER_CHROMIUM_ARGS })
  } catch (error) {
    // A binary that is there but does not start (wrong architecture, missing libraries) is the same for the caller.
    throw new DomainError(
      'render_unavailable',
      `headless Chromium at ${executablePath} did not start: ${String((error as Error).message ?? error).slice(0, 300)}; set CHROMIUM_PATH`,
    )
  }
}

/** Width and height of a PNG, from its IHDR chunk (bytes 16–23); null when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (png.length < 24 || signature.some((byte, i) => png[i] !== byte)) return null
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  return { width: view.getUint32(16), height: view.getUint32(20) }
}
