import { z } from 'zod'
import type { RouteResponse } from '../platform/route.js'

/**
 * How the browser pages' declarations (sign-in, single sign-on, connected apps) document their answers: an
 * HTML page (read-api/people/html.ts sendPage) or a redirect, and the fields every form and link shares. The
 * pages check their input themselves and answer a page when it is wrong, so these schemas document the
 * input; they do not refuse it.
 */
export const HtmlPage = z.string().describe('An HTML page (no-store, never framed, a CSP that allows inline style only)')

export const pageResponse = (description: string): RouteResponse => ({ description, type: 'text/html', schema: HtmlPage })

export const redirectResponse = (description: string): RouteResponse => ({
  description,
  headers: { Location: 'Where the browser goes next' },
})

export const CsrfField = z.string().describe("The CSRF token the page's form carries (bound to the rr_csrf cookie and the session)")

export const ReturnTo = z.string().optional().describe('A path on this site to go to after signing in (anything else is ignored)')

/** A page as the examples show it: the shell of read-api/people/html.ts around the heading. */
export const pageExample = (title: string, body: string) =>
  `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>${title} · RankRelay</title>\n…\n</head>\n<body>\n<main>\n<h1>${title}</h1>\n${body}\n</main>\n</body>\n</html>\n`

export const CSRF_EXAMPLE = 'Qm9vdHN0cmFwLWNzcmYtZXhhbXBsZS10b2tlbg'
