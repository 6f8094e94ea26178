import pino, { type Logger } from 'pino'

/** JSON logs (pino) on stderr, so stdout stays for what a command prints (keys, NDJSON replays). */
export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'rankrelay' } }, pino.destination(2))
}
