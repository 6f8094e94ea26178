/**
 * Source domains: the registrable domain of a URL (without www) and the class of a cited source. Pure.
 * The curated lists name the directories / review sites and the media an answer engine leans on; they
 * are part of the analysis, so a change to them is a new ANALYSIS_VERSION.
 */

export type SourceClass = 'own' | 'competitor' | 'directory' | 'media' | 'other'

/** Public suffixes of two labels that appear in practice; anything else takes the last two labels. */
const TWO_LABEL_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'ltd.uk',
  'plc.uk',
  'me.uk',
  'com.au',
  'net.au',
  'org.au',
  'gov.au',
  'edu.au',
  'co.nz',
  'org.nz',
  'net.nz',
  'co.za',
  'com.br',
  'com.mx',
  'com.ar',
  'com.sg',
  'com.hk',
  'com.tr',
  'com.cn',
  'co.jp',
  'co.in',
  'co.kr',
  'co.il',
  'com.my',
  'com.ph',
])

/** The host of a URL as written (a missing scheme is tolerated), lower-cased; '' when it is not a URL. */
export function hostOf(url: string): string {
  const text = url.trim()
  if (!text) return ''
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`
  try {
    const host = new URL(withScheme).hostname.toLowerCase().replace(/\.$/, '')
    return host.includes('.') ? host : ''
  } catch {
    return ''
  }
}

/** `https://www.Maps.Example.co.uk/x` → `example.co.uk`; '' when the URL has no usable host. */
export function registrableDomain(url: string): string {
  const host = hostOf(url).replace(/^www\d*\./, '')
  if (!host) return ''
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return host
  const labels = host.split('.').filter(Boolean)
  if (labels.length <= 2) return labels.join('.')
  const lastTwo = labels.slice(-2).join('.')
  return TWO_LABEL_SUFFIXES.has(lastTwo) ? labels.slice(-3).join('.') : lastTwo
}

/** Directories, maps and review sites (tier C work: claim, complete, earn reviews). */
export const DIRECTORY_DOMAINS: Readonly<Record<string, string>> = {
  'google.com': 'Google Business Profile',
  'g.co': 'Google Business Profile',
  'goo.gl': 'Google Business Profile',
  'yelp.com': 'Yelp',
  'bbb.org': 'Better Business Bureau',
  'angi.com': 'Angi',
  'angieslist.com': 'Angi',
  'homeadvisor.com': 'HomeAdvisor',
  'thumbtack.com': 'Thumbtack',
  'houzz.com': 'Houzz',
  'porch.com': 'Porch',
  'bark.com': 'Bark',
  'networx.com': 'Networx',
  'yellowpages.com': 'Yellow Pages',
  'superpages.com': 'Superpages',
  'manta.com': 'Manta',
  'mapquest.com': 'MapQuest',
  'nextdoor.com': 'Nextdoor',
  'facebook.com': 'Facebook',
  'instagram.com': 'Instagram',
  'linkedin.com': 'LinkedIn',
  'tripadvisor.com': 'Tripadvisor',
  'trustpilot.com': 'Trustpilot',
  'birdeye.com': 'Birdeye',
  'expertise.com': 'Expertise.com',
  'threebestrated.com': 'Three Best Rated',
  'fixr.com': 'Fixr',
  'checkbook.org': 'Checkbook',
  'healthgrades.com': 'Healthgrades',
  'zocdoc.com': 'Zocdoc',
  'vitals.com': 'Vitals',
  'webmd.com': 'WebMD Care',
  'avvo.com': 'Avvo',
  'justia.com': 'Justia',
  'findlaw.com': 'FindLaw',
  'lawyers.com': 'Lawyers.com',
  'martindale.com': 'Martindale',
  'superlawyers.com': 'Super Lawyers',
  'opentable.com': 'OpenTable',
  'zillow.com': 'Zillow',
  'realtor.com': 'Realtor.com',
  'care.com': 'Care.com',
  'clutch.co': 'Clutch',
  'upcity.com': 'UpCity',
  'g2.com': 'G2',
  'capterra.com': 'Capterra',
  'glassdoor.com': 'Glassdoor',
  'foursquare.com': 'Foursquare',
  'chamberofcommerce.com': 'Chamber of Commerce',
  'buildzoom.com': 'BuildZoom',
  'homeguide.com': 'HomeGuide',
  'apple.com': 'Apple Maps',
  'bing.com': 'Bing Places',
}

/** News, magazines, forums and reference sites (market-driven: earned coverage, not a listing). */
export const MEDIA_DOMAINS: ReadonlySet<string> = new Set([
  'nytimes.com',
  'wsj.com',
  'washingtonpost.com',
  'usatoday.com',
  'latimes.com',
  'chicagotribune.com',
  'cnn.com',
  'cnbc.com',
  'foxnews.com',
  'nbcnews.com',
  'cbsnews.com',
  'abcnews.go.com',
  'go.com',
  'npr.org',
  'bbc.com',
  'bbc.co.uk',
  'theguardian.com',
  'reuters.com',
  'apnews.com',
  'bloomberg.com',
  'axios.com',
  'forbes.com',
  'businessinsider.com',
  'huffpost.com',
  'bizjournals.com',
  'inc.com',
  'entrepreneur.com',
  'statesman.com',
  'chron.com',
  'houstonchronicle.com',
  'dallasnews.com',
  'sfgate.com',
  'sfchronicle.com',
  'miamiherald.com',
  'seattletimes.com',
  'denverpost.com',
  'azcentral.com',
  'patch.com',
  'timeout.com',
  'eater.com',
  'thrillist.com',
  'austinmonthly.com',
  'texasmonthly.com',
  'culturemap.com',
  'consumerreports.org',
  'thisoldhouse.com',
  'bobvila.com',
  'familyhandyman.com',
  'bhg.com',
  'hgtv.com',
  'nerdwallet.com',
  'bankrate.com',
  'investopedia.com',
  'fool.com',
  'lendingtree.com',
  'reddit.com',
  'quora.com',
  'youtube.com',
  'medium.com',
  'wikipedia.org',
  'tiktok.com',
  'x.com',
  'twitter.com',
])

/** The display name of a directory domain, or undefined when the domain is not a directory. */
export function directoryName(domain: string): string | undefined {
  return Object.hasOwn(DIRECTORY_DOMAINS, domain) ? DIRECTORY_DOMAINS[domain] : undefined
}

/** Letters and digits only, lower-cased: `Acme-Plumbing.com` and `Acme Plumbing` meet at `acmeplumbing`. */
export function squash(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '')
}

/** The first label of a registrable domain (`acme-plumbing.co.uk` → `acme-plumbing`). */
export function domainLabel(domain: string): string {
  return domain.split('.')[0] ?? ''
}
