import { createHash, randomBytes } from 'node:crypto'
import { systemContext } from '../../../commands/command-handler.js'
import {
  approveOAuthGrant,
  exchangeOAuthCode,
  refreshOAuthTokens,
  registerOAuthClient,
  revokeOAuthGrant,
  revokeOAuthToken,
} from '../../../commands/oauth.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/**
 * The OAuth part of the realistic log: two clients, a grant exchanged and refreshed twice, a replayed refresh
 * token (grant revoked), a reused code (grant revoked), a token revoked at /oauth/revoke and a grant revoked
 * through the RPC's command.
 */
export async function writeOAuthLog(ts: TestSystem, log: RealisticLog): Promise<void> {
  const deps = ts.system.write
  const context = systemContext('realistic-log')
  const [orgA, orgB] = log.orgIds as [number, number]
  const meta = { client_uri: null, logo_uri: null, software_id: null, software_version: null }
  const { clientId } = await registerOAuthClient(deps, context, {
    client_name: 'Claude',
    redirect_uris: ['https://claude.example/cb', 'http://127.0.0.1/cb'],
    ...meta,
  })
  const { clientId: other } = await registerOAuthClient(deps, context, {
    client_name: 'Cursor',
    redirect_uris: ['http://localhost:3000/cb'],
    ...meta,
  })

  const grant = async (orgId: number, client: number, redirectUri: string, scopes: ('read' | 'write' | 'jobs' | 'offline_access')[]) => {
    const verifier = randomBytes(32).toString('base64url')
    const challenge = createHash('sha256').update(verifier).digest('base64url')
    const approved = await approveOAuthGrant(deps, context, {
      orgId,
      userId: 1,
      clientId: client,
      scopes,
      resource: null,
      redirectUri,
      codeChallenge: challenge,
    })
    const exchanged = await exchangeOAuthCode(deps, context, { code: approved.code, clientId: client, redirectUri, codeVerifier: verifier })
    if (!exchanged.ok) throw new Error(`realistic log: exchange refused: ${exchanged.detail}`)
    return { ...approved, verifier, tokens: exchanged.tokens }
  }

  const a = await grant(orgA, clientId, 'https://claude.example/cb', ['read', 'write', 'offline_access'])
  const r1 = await refreshOAuthTokens(deps, context, { refreshToken: a.tokens.refreshToken!, clientId })
  if (!r1.ok) throw new Error('realistic log: refresh refused')
  const r2 = await refreshOAuthTokens(deps, context, { refreshToken: r1.tokens.refreshToken!, clientId })
  if (!r2.ok) throw new Error('realistic log: refresh refused')
  await refreshOAuthTokens(deps, context, { refreshToken: a.tokens.refreshToken!, clientId }) // replay: revokes

  const b = await grant(orgB, other, 'http://localhost:3000/cb', ['read'])
  await exchangeOAuthCode(deps, context, {
    code: b.code,
    clientId: other,
    redirectUri: 'http://localhost:3000/cb',
    codeVerifier: b.verifier,
  }) // reuse: revokes

  const c = await grant(orgA, clientId, 'http://127.0.0.1:4444/cb', ['read', 'offline_access'])
  await revokeOAuthToken(deps, context, c.tokens.accessToken)
  const d = await grant(orgA, clientId, 'https://claude.example/cb', ['read', 'jobs'])
  await revokeOAuthGrant(deps, context, { grantId: d.grantId, revoker: { orgId: orgA, userId: null } })
  await grant(orgA, other, 'http://localhost:3000/cb', ['read'])
}
