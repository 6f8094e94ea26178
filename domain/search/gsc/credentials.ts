import { z } from 'zod'

/**
 * The credentials a client's Search Console property is read with, as the agency gives them: a service
 * account's JSON key (as the Google Cloud console downloads it; the agency adds the account's address as a
 * user of the property) or the organization's OAuth grant to Google (an OAuth client and the refresh token a
 * consent gave it). They are sealed with the service key before they are recorded (commands/search/gsc),
 * and no read ever returns them: only the kind and, for a service account, its address.
 */

const Text = (max: number) => z.string().trim().min(1, 'must not be empty').max(max)

/** A service account's JSON key file. Fields Google adds beside these (auth_uri, client_x509_cert_url, …) are accepted and not kept. */
export const ServiceAccountKey = z
  .looseObject({
    type: z.literal('service_account').describe('"service_account", as in the key file'),
    client_email: z
      .string()
      .trim()
      .max(320)
      .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'expected the service account address (…@….iam.gserviceaccount.com)')
      .describe("The service account's address: add it as a user of the property in Search Console"),
    private_key: z
      .string()
      .max(10_000)
      .refine((pem) => /-----BEGIN (RSA )?PRIVATE KEY-----/.test(pem), 'expected the PEM private key of the key file')
      .describe('The PEM private key from the key file'),
    private_key_id: z.string().max(200).optional().describe("The key's id from the key file (optional)"),
    project_id: z.string().max(200).optional().describe('The Google Cloud project of the account (optional)'),
  })
  .describe('A service account JSON key, as downloaded from the Google Cloud console')
export type ServiceAccountKey = z.infer<typeof ServiceAccountKey>

export const OAuthGrant = z
  .strictObject({
    type: z.literal('oauth').describe('"oauth": the organization\'s OAuth grant to Google'),
    client_id: Text(300).describe('The OAuth client id (….apps.googleusercontent.com) the grant was made to'),
    client_secret: Text(300).describe("The OAuth client's secret"),
    refresh_token: Text(2000).describe('The refresh token of a consent that included https://www.googleapis.com/auth/webmasters.readonly'),
  })
  .describe("The organization's OAuth grant to Google: a refresh token and the OAuth client it was issued to")
export type OAuthGrant = z.infer<typeof OAuthGrant>

export const GscCredentialsInput = z
  .discriminatedUnion('type', [ServiceAccountKey, OAuthGrant])
  .describe('How the property is read: a service account JSON key (type service_account) or an OAuth grant (type oauth)')
export type GscCredentialsInput = z.infer<typeof GscCredentialsInput>

export const GscAuthType = z.enum(['service_account', 'oauth']).describe('service_account (a JSON key) or oauth (a refresh token)')
export type GscAuthType = z.infer<typeof GscAuthType>

/** What the sealed blob holds (JSON): exactly what a token request needs, nothing the key file adds. */
export type GscSecret =
  | {
      readonly type: 'service_account'
      readonly client_email: string
      readonly private_key: string
      readonly private_key_id: string | null
    }
  | { readonly type: 'oauth'; readonly client_id: string; readonly client_secret: string; readonly refresh_token: string }

/** The secret to seal, from what the caller gave (the key file's token_uri is never used: tokens come from GSC_TOKEN_URL). */
export function secretOf(input: GscCredentialsInput): GscSecret {
  if (input.type === 'service_account') {
    return {
      type: 'service_account',
      client_email: input.client_email.trim(),
      private_key: input.private_key,
      private_key_id: input.private_key_id ?? null,
    }
  }
  return { type: 'oauth', client_id: input.client_id, client_secret: input.client_secret, refresh_token: input.refresh_token }
}

const SecretSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('service_account'),
    client_email: z.string(),
    private_key: z.string(),
    private_key_id: z.string().nullable(),
  }),
  z.object({ type: z.literal('oauth'), client_id: z.string(), client_secret: z.string(), refresh_token: z.string() }),
])

/** The secret back from the JSON it was sealed as; null when the text is not one (a blob from elsewhere). */
export function parseSecret(json: string): GscSecret | null {
  try {
    const parsed = SecretSchema.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
