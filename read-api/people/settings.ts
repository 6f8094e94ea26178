import type { ServiceKey } from '../../commands/secrets/service-key.js'
import type { IssuedPasswordReset } from '../../commands/people.js'

/** A password-reset link to hand to the person (email delivery is a port: no adapter ships yet). */
export type PasswordResetDelivery = (reset: {
  readonly userId: number
  readonly email: string
  readonly link: string
  readonly expiresAt: string
}) => Promise<void>

/** What the sign-in pages and member RPCs need from the operator's configuration (ops/system.ts wires it). */
export interface PeopleSettings {
  /** Seals and opens TOTP secrets, and keys the CSRF token MAC. */
  readonly serviceKey: ServiceKey
  /** BASE_URL: an https one makes cookies Secure. (Links are on publicBaseUrl, read-api/platform/public-base-url.ts.) */
  readonly baseUrl: string | undefined
  /** Where reset links go; absent: nowhere (the request is recorded; the operator's `reset-password` prints a link). */
  readonly deliverPasswordReset?: PasswordResetDelivery
}

export const secureCookies = (settings: PeopleSettings) => settings.baseUrl?.startsWith('https://') ?? false

export type { IssuedPasswordReset }
