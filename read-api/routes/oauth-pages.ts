import type { FastifyReply } from 'fastify'
import { html, sendPage as sendOurPage, type Raw } from '../people/html.js'

/**
 * The authorization server's own HTML (the consent page and the error page shown when there is no redirect
 * URI to send an error to): the sign-in pages' escaping and page shell (read-api/people/html.ts), with its own
 * style. Plain, accessible, no external assets but an app's https logo; every value is escaped.
 */
export { html }
export type Markup = Raw

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1b1f24;line-height:1.5}
main{max-width:32rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
ul.scopes li{margin:.4rem 0}
.warning{background:#fff8c5;border:1px solid #9a6700;padding:.75rem;border-radius:4px}
.error{background:#ffebe9;border:1px solid #cf222e;padding:.75rem;border-radius:4px}
.actions{display:flex;gap:1rem;margin-top:1.5rem}
button{padding:.6rem 1.2rem;font-size:1rem;border-radius:4px;cursor:pointer;border:1px solid #8c959f;background:#f6f8fa;color:#1b1f24}
button.primary{background:#1f883d;border-color:#1f883d;color:#fff}
button:focus,a:focus{outline:3px solid #0969da;outline-offset:1px}
code{font-family:ui-monospace,monospace;word-break:break-all}
.hint{color:#57606a;font-size:.9rem}
`

/**
 * Sends a page with the headers a consent page needs (see sendPage in read-api/people/html.ts), without CSP
 * form-action: approving redirects to the app's own redirect URI, which form-action would block in browsers
 * that apply it to redirects; img-src https: for the app's logo.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Markup): FastifyReply {
  return sendOurPage(reply, status, title, body, { formAction: null, imgSrc: 'https:', style: STYLE })
}
