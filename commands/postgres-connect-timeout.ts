/**
 * How long a new PostgreSQL connection may take (TCP, TLS and the startup exchange) before it is given up. A
 * network that drops packets, or a server that accepts and never answers, would otherwise keep every request
 * waiting on the pool for good instead of failing fast as the store being unavailable (503 store_unavailable,
 * event-store/unavailable.ts knows node-postgres's timeout errors). Generous for a real connect, which takes
 * milliseconds on a LAN; short against a client's own patience. Used by every pool and long-lived client.
 */
export const PG_CONNECT_TIMEOUT_MS = 5000
