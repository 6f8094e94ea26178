import type { FastifyReply } from 'fastify'

/**
 * The authorization server's own HTML (the consent page and the error page shown when there is no redirect
 * URI to send an error to). Plain, accessible, no external assets; every value is escaped.
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

export class Markup {
  constructor(readonly text: string) {}
}

/** A template tag that escapes every interpolated value except Markup (and arrays of them). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0]!
  values.forEach((value, i) => {
    for (const part of Array.isArray(value) ? value : [value]) {
      out += part instanceof Markup ? part.text : part === null || part === undefined || part === false ? '' : escapeHtml(part)
    }
    out += strings[i + 1]!
  })
  return new Markup(out)
}

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
 * Sends a page with the headers a consent page needs: never cached, never framed (clickjacking), no
 * referrer (the query carries state and the challenge). No CSP form-action: approving redirects to the app's
 * own redirect URI, which form-action would block in browsers that apply it to redirects.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Markup): FastifyReply {
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; img-src https:; frame-ancestors 'none'; base-uri 'none'")
    .send(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · RankRelay</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body.text}
</main>
</body>
</html>
`)
}
