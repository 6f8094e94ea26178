import { z } from 'zod'

/** How files reach a site without REST: sftp (over SSH, the default: encrypted) or plain ftp. */
export const FtpProtocol = z.enum(['sftp', 'ftp'])
export type FtpProtocol = z.infer<typeof FtpProtocol>

/** The port each protocol listens on unless the site says otherwise. */
export const DEFAULT_FTP_PORT: Readonly<Record<FtpProtocol, number>> = { sftp: 22, ftp: 21 }

/** The SEO plugins whose title and description fields the publisher writes. */
export const SeoPluginKind = z.enum(['yoast', 'rank_math'])
export type SeoPluginKind = z.infer<typeof SeoPluginKind>

/** The root path when none is given: the account's home (the site's files are under it on most hosts). */
export const DEFAULT_ROOT_PATH = '/'

/**
 * A host name or IP address for FTP/SFTP: letters, digits, dots, hyphens (a name), or an IPv4/IPv6 literal.
 * No scheme, no port, no path: those have their own fields.
 */
export const FTP_HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[?[0-9a-f:.]+\]?)$/i

/** An absolute POSIX path on the server, without `..` segments. */
export function isRootPath(path: string): boolean {
  return path.startsWith('/') && !path.split('/').includes('..')
}
