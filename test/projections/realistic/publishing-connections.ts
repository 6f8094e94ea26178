import { systemContext } from '../../../commands/command-handler.js'
import {
  checkClientConnection,
  removeClientWordPress,
  setClientWordPress,
  type SiteChecker,
} from '../../../commands/publishing/connections.js'
import { ephemeralServiceKey } from '../../../commands/secrets/service-key.js'
import type { SiteCheckInput } from '../../../domain/publishing/connections/site-connection.js'
import type { TestSystem } from '../../support/system.js'
import type { RealisticLog } from '../helpers.js'

/** What a WordPress site answered a check, as the checker reports it (the HTTP test checks a live stand-in). */
const passed = (baseUrl: string): SiteCheckInput => ({
  ok: true,
  base_url: baseUrl,
  site_name: 'Acme Plumbing',
  wp_version: '6.7.1',
  theme: { stylesheet: 'hello-elementor', name: 'Hello Elementor', version: '3.1.1' },
  plugins: [
    { plugin: 'elementor/elementor', name: 'Elementor', version: '3.25.10', status: 'active' },
    { plugin: 'seo-by-rank-math/rank-math', name: 'Rank Math SEO', version: '1.0.230', status: 'active' },
    { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.1', status: 'inactive' },
  ],
  seo_plugin: 'rank_math',
  redirection: false,
  elementor: true,
  user: { id: 3, name: 'RankRelay', slug: 'rankrelay', roles: ['editor'] },
  error_category: null,
  error: null,
})

const failed = (baseUrl: string): SiteCheckInput => ({
  ...passed(baseUrl),
  ok: false,
  site_name: null,
  wp_version: null,
  theme: null,
  plugins: null,
  seo_plugin: null,
  elementor: false,
  user: null,
  error_category: 'auth',
  error: 'GET /wp/v2/users/me: 401 incorrect_password',
})

/**
 * The site connections part of the realistic log. FTP, the SSH key and the notification URL through HTTP: set,
 * set unchanged (no event), moved port, a second client's plain FTP cleared, a key made, asked again (no
 * event) and rotated, a URL set and cleared, the other organization's, a foreign attempt refused. WordPress
 * through the same commands set_client_wordpress and check_client_connection run, with the check's answer
 * given (no site to reach here): connected, checked ok, checked failing, saved unverified, removed.
 */
export async function writeSiteConnectionsLog(ts: TestSystem, log: RealisticLog, keys: { orgA: string; orgB: string }): Promise<void> {
  const call = ts.call
  const [plumbers, heaters, , , bravo] = log.clientIds as [number, number, number, number, number]
  const ftp = {
    client_id: plumbers,
    host: 'sftp.acme-plumbing.example.com',
    username: 'acme',
    password: 'ftp-pass-1',
    root_path: '/var/www/acme',
  }
  await call('set_client_ftp', ftp, keys.orgA)
  await call('set_client_ftp', { ...ftp, password: undefined }, keys.orgA) // unchanged
  await call('set_client_ftp', { ...ftp, password: undefined, port: 2222 }, keys.orgA)
  await call(
    'set_client_ftp',
    { client_id: heaters, host: 'ftp.heaters.example.com', username: 'heat', protocol: 'ftp', password: 'p' },
    keys.orgA,
  )
  await call('clear_client_ftp', { client_id: heaters }, keys.orgA)
  await call('clear_client_ftp', { client_id: heaters }, keys.orgA) // nothing to clear
  await call('create_client_ssh_key', { client_id: plumbers }, keys.orgA)
  await call('create_client_ssh_key', { client_id: plumbers }, keys.orgA) // kept
  await call('create_client_ssh_key', { client_id: plumbers, rotate: true }, keys.orgA)
  await call('set_client_webhook', { client_id: plumbers, url: 'https://93.184.216.34/hooks/acme' }, keys.orgA)
  await call('set_client_webhook', { client_id: heaters, url: 'https://93.184.216.34/hooks/heaters' }, keys.orgA)
  await call('set_client_webhook', { client_id: heaters, url: null }, keys.orgA)
  await call('set_client_ftp', { client_id: bravo, host: 'sftp.bravo.example.com', username: 'bravo', password: null }, keys.orgB)
  await call('create_client_ssh_key', { client_id: bravo }, keys.orgB)
  const foreign = await ts.rpc('set_client_ftp', { client_id: plumbers, host: 'x.example.com', username: 'x' }, keys.orgB)
  if (foreign.statusCode !== 404) throw new Error(`a foreign set_client_ftp answered ${foreign.statusCode}`)

  const write = ts.system.write
  const serviceKey = ephemeralServiceKey()
  const orgA = log.orgIds[0]!
  const context = systemContext('realistic-log')
  const answering =
    (answer: (baseUrl: string) => SiteCheckInput): SiteChecker =>
    async (credentials) =>
      answer(credentials.baseUrl)
  const connect = (clientId: number, baseUrl: string, check: SiteChecker, saveUnverified = false) =>
    setClientWordPress(write, context, {
      callerOrgId: orgA,
      clientId,
      baseUrl,
      username: 'rankrelay',
      applicationPassword: 'abcd EFGH 1234 ijkl MNOP 5678',
      saveUnverified,
      serviceKey,
      check,
    })
  await connect(plumbers, 'https://acme-plumbing.example.com/wp-json/', answering(passed))
  await checkClientConnection(write, context, { callerOrgId: orgA, clientId: plumbers, serviceKey, check: answering(failed) })
  await checkClientConnection(write, context, { callerOrgId: orgA, clientId: plumbers, serviceKey, check: answering(passed) })
  await connect(heaters, 'https://heaters.example.com', answering(failed), true)
  await removeClientWordPress(write, context, { callerOrgId: orgA, clientId: heaters })
  await removeClientWordPress(write, context, { callerOrgId: orgA, clientId: heaters }) // nothing to remove
}
