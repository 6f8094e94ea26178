import { z } from 'zod'

/**
 * The error envelope (read-api/errors.ts `envelope`) as a route declares an answer of its own with it: a
 * refusal the shared error responses do not list for the route (a 405, the metrics scrape's 403).
 */
export const ErrorBody = z.object({
  error: z.string().describe("The code's message"),
  code: z.string().describe('The stable error code'),
  detail: z.string().optional().describe('What exactly was wrong'),
  hint: z.string().optional().describe('What to do about it'),
  request_id: z.string().describe("The request's id, as in its X-Request-Id header"),
})
