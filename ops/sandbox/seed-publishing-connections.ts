import type { CommandContext, WriteDeps } from '../../commands/command-handler.js'
import { setClientFtp, setClientWordPress } from '../../commands/publishing/connections.js'
import { ephemeralServiceKey } from '../../commands/secrets/service-key.js'
import type { SiteCheckInput } from '../../domain/publishing/connections/site-connection.js'

/** The fictional site's address (the .example TLD never resolves: nothing is ever sent there). */
const SITE = 'https://rapid-rooter.example'

/** What the fictional site answered its connection check: recorded as given, no network. */
const RECORDED_CHECK: SiteCheckInput = {
  ok: true,
  base_url: SITE,
  site_name: 'Rapid Rooter Plumbing',
  wp_version: '6.7.1',
  theme: { stylesheet: 'hello-elementor', name: 'Hello Elementor', version: '3.1.1' },
  plugins: [
    { plugin: 'elementor/elementor', name: 'Elementor', version: '3.25.10', status: 'active' },
    { plugin: 'wordpress-seo/wp-seo', name: 'Yoast SEO', version: '23.9', status: 'active' },
    { plugin: 'redirection/redirection', name: 'Redirection', version: '5.5.1', status: 'active' },
  ],
  seo_plugin: 'yoast',
  redirection: true,
  elementor: true,
  user: { id: 3, name: 'RankRelay', slug: 'rankrelay', roles: ['administrator'] },
  error_category: null,
  error: null,
}

/**
 * The sandbox's fictional site connections: a WordPress site connected with a recorded check, and SFTP details
 * without a password. The fictional application password is sealed with a key of this process only, so no
 * process can open it: the sandbox never publishes to a real site.
 */
export async function seedSandboxSiteConnections(write: WriteDeps, ctx: CommandContext, orgId: number, clientId: number): Promise<void> {
  const serviceKey = ephemeralServiceKey()
  await setClientWordPress(write, ctx, {
    callerOrgId: orgId,
    clientId,
    baseUrl: SITE,
    username: 'rankrelay',
    applicationPassword: 'sand box0 fict iona lpas swrd',
    saveUnverified: false,
    serviceKey,
    check: async () => RECORDED_CHECK,
  })
  await setClientFtp(write, ctx, {
    callerOrgId: orgId,
    clientId,
    serviceKey,
    host: 'sftp.rapid-rooter.example',
    username: 'rapidrooter',
    password: null,
    rootPath: '/var/www/rapid-rooter',
  })
}
