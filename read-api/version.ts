/** Sent as X-Service-API-Version on every /api response. The path carries the major version (v1). */
export const API_VERSION = '1.0.0'
