import { createUserWithCredentials, requestPasswordReset, type PeopleDeps } from '../../commands/people.js'
import { systemContext } from '../../commands/command-handler.js'
import { resolveServiceKey } from '../../commands/secrets/service-key.js'
import { ROLES, type Role } from '../../domain/people/roles.js'
import { DomainError } from '../../domain/shared/errors.js'
import type { Config } from '../config.js'
import { createLogger } from '../logger.js'
import { openForOps, type OpsOptions } from './open.js'

/** A refusal the operator can act on: printed without a stack trace, exit 1. */
export class PeopleCommandError extends Error {}

const loginUrl = (config: Config) => `${config.baseUrl}/login`

/**
 * `npm run ops -- create-user --org <id> --email <e> --role owner [--password <p>]`: a member with a
 * password and TOTP in force at once (no invite step), for the first owner of an organization. Prints, once,
 * what the person needs to sign in: the password when generated, the TOTP secret as an otpauth:// URI and
 * the recovery codes. Uses the service key `serve` uses (SERVICE_ENCRYPTION_KEY, or the one under DATA_DIR),
 * so the sealed TOTP secret opens in the service.
 */
export async function createUserCommand(
  config: Config,
  input: { org: string | undefined; email: string | undefined; role: string | undefined; password: string | undefined },
  ops: OpsOptions,
): Promise<number> {
  const orgId = Number(input.org)
  if (!input.org || !Number.isInteger(orgId) || orgId <= 0) throw new PeopleUsageError('create-user needs --org <organization id>')
  if (!input.email) throw new PeopleUsageError('create-user needs --email <address>')
  const role = (input.role ?? 'owner') as Role
  if (!(ROLES as readonly string[]).includes(role)) throw new PeopleUsageError(`--role must be one of ${ROLES.join(', ')}`)
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  // Attached first: resolving the key may write one into DATA_DIR, which only an existing store may get.
  const { system, close } = await openForOps(config, 'create-user', log, ops)
  try {
    const serviceKey = await resolveServiceKey({
      given: config.webhooks.serviceKey,
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
    })
    // Projects only if no service holds the projection lock (a running service projects it itself).
    system.runner.start()
    const deps: PeopleDeps = { ...system.write, serviceKey }
    const created = await createUserWithCredentials(deps, systemContext('ops create-user'), {
      orgId,
      email: input.email,
      role,
      ...(input.password === undefined ? {} : { password: input.password }),
    }).catch((error: unknown) => {
      if (error instanceof DomainError)
        throw new PeopleCommandError(`create-user: ${error.message}${error.detail ? ` (${error.detail})` : ''}`)
      throw error
    })
    if (created.position) await system.watermark.waitFor(created.position, 10_000)
    const lines = [
      `User ${created.userId} created: ${created.email}, ${role} of organization ${orgId}. Shown once; nothing below can be shown again.`,
      ...(created.generatedPassword ? [`Password: ${created.generatedPassword}`] : []),
      `TOTP (add to an authenticator app): ${created.otpauthUri}`,
      'Recovery codes (each signs in once instead of a TOTP code):',
      ...created.recoveryCodes.map((c) => `  ${c}`),
      `Sign in at: ${loginUrl(config)}`,
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
    return 0
  } finally {
    await close()
  }
}

/**
 * `npm run ops -- reset-password --email <e>`: issues a password-reset link (30 minutes, single use) for a
 * member and prints it, for the operator to hand over (the service sends no email). Prints nothing usable for
 * an unknown email or a member who cannot sign in, and says so.
 */
export async function resetPasswordCommand(config: Config, email: string | undefined, ops: OpsOptions): Promise<number> {
  if (!email) throw new PeopleUsageError('reset-password needs --email <address>')
  const log = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel)
  const { system, close } = await openForOps(config, 'reset-password', log, ops)
  try {
    system.runner.start()
    const issued = await requestPasswordReset(system.write, systemContext('ops reset-password'), { email })
    if (!issued)
      throw new PeopleCommandError('reset-password: no active member with that email, or a reset was issued in the last 5 minutes')
    if (issued.position) await system.watermark.waitFor(issued.position, 10_000)
    process.stdout.write(
      `Password reset link for ${issued.email} (single use, until ${issued.expiresAt}): ${config.baseUrl}/password-reset/${issued.token}\n`,
    )
    return 0
  } finally {
    await close()
  }
}

export class PeopleUsageError extends Error {}
