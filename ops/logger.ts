import pino, { type DestinationStream, type Logger } from 'pino'

/**
 * JSON logs (pino) on stderr, so stdout stays for what a command prints (keys, NDJSON replays). A request's
 * lines also carry `request_id`, and once known `org_id`, `key_id` and `rpc` (read-api/platform/log-context.ts).
 * Tests pass their own destination to read the lines.
 */
export function createLogger(level: string, destination: DestinationStream = pino.destination(2)): Logger {
  return pino({ level, base: { service: 'rankrelay' } }, destination)
}
