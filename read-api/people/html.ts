import type { FastifyReply } from 'fastify'

/**
 * The sign-in pages' HTML: small, plain, accessible, no external assets (inline CSS only). Every value that
 * reaches a page goes through `escapeHtml` (the `html` tag does it for each interpolation; `raw` marks
 * markup this module built itself).
 */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

export class Raw {
  constructor(readonly text: string) {}
}
export const raw = (text: string) => new Raw(text)

/** A template tag that escapes every interpolated value except Raw (and arrays of them, joined). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Raw {
  let out = strings[0]!
  values.forEach((value, i) => {
    const parts = Array.isArray(value) ? value : [value]
    for (const part of parts)
      out += part instanceof Raw ? part.text : part === null || part === undefined || part === false ? '' : escapeHtml(part)
    out += strings[i + 1]!
  })
  return new Raw(out)
}

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f5f6f8;color:#1b1f24;line-height:1.5}
main{max-width:30rem;margin:3rem auto;padding:2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.4rem;margin-top:0}
label{display:block;margin:1rem 0 .25rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem;border:1px solid #8c959f;border-radius:4px}
input:focus,button:focus{outline:3px solid #0969da;outline-offset:1px}
button{margin-top:1.25rem;padding:.6rem 1.2rem;font-size:1rem;background:#0969da;color:#fff;border:0;border-radius:4px;cursor:pointer}
.error{background:#ffebe9;border:1px solid #cf222e;padding:.75rem;border-radius:4px}
.notice{background:#ddf4ff;border:1px solid #0969da;padding:.75rem;border-radius:4px}
code,.secret{font-family:ui-monospace,monospace;word-break:break-all}
ul.codes{columns:2;font-family:ui-monospace,monospace}
.hint{color:#57606a;font-size:.9rem}
`

export function page(title: string, body: Raw, style: string = STYLE): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} · RankRelay</title>
<style>${style}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body.text}
</main>
</body>
</html>
`
}

/** A message box; `code` is the stable error code, shown so a person can quote it. */
export const errorBox = (message: string, code?: string) =>
  html`<div class="error" role="alert"><p>${message}${code ? html` <span class="hint">(${code})</span>` : ''}</p></div>`
export const noticeBox = (message: string) => html`<div class="notice" role="status"><p>${message}</p></div>`

export interface PageOptions {
  /**
   * The CSP form-action sources (default 'self'); a page whose form leads on to an identity provider
   * (/login/sso) must allow the redirect. null: no form-action at all (the OAuth consent page, whose Allow
   * redirects to the app's own URI, which browsers applying form-action to redirects would block).
   */
  readonly formAction?: string | null
  /** CSP img-src sources, when the page shows images (an app's https logo). */
  readonly imgSrc?: string
  /** The page's CSS instead of the sign-in pages' own. */
  readonly style?: string
}

/**
 * Answers with a page and the headers every page of ours carries: never cached, never framed (clickjacking),
 * no referrer (queries carry tokens and state), a CSP that allows nothing but inline style.
 */
export function sendPage(reply: FastifyReply, status: number, title: string, body: Raw, options: PageOptions = {}): FastifyReply {
  const csp = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    options.imgSrc === undefined ? null : `img-src ${options.imgSrc}`,
    options.formAction === null ? null : `form-action ${options.formAction ?? "'self'"}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ]
  return reply
    .code(status)
    .header('Content-Type', 'text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .header('X-Frame-Options', 'DENY')
    .header('Referrer-Policy', 'no-referrer')
    .header('Content-Security-Policy', csp.filter((d) => d !== null).join('; '))
    .send(page(title, body, options.style))
}
