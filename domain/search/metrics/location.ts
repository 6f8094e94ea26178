import type { MetricsLocation } from './events.js'

/**
 * The market a client's keyword metrics are for: a country, as Google Ads (and so DataForSEO's Keywords Data
 * API) knows it. Metrics are national on purpose: a local keyword names its city ("drain cleaning austin"),
 * and a country-wide volume is what keyword tools show for it; a city-level location would need DataForSEO's
 * location list to name, and would split one phrase's numbers per client location.
 *
 * Google Ads' country location codes are 2000 + the ISO 3166-1 numeric code (United States: 840 → 2840).
 */
export interface MetricsCountry extends MetricsLocation {
  /** ISO 3166-1 alpha-2. */
  readonly country: string
  /** Other ways a client's location may name the country (upper-case). */
  readonly aliases: readonly string[]
}

const country = (code: string, iso: number, name: string, language: string, aliases: readonly string[] = []): MetricsCountry => ({
  country: code,
  location_code: 2000 + iso,
  location_name: name,
  language_code: language,
  aliases: [code, name.toUpperCase(), ...aliases],
})

/** The countries metrics can be fetched for, each with its main search language. */
export const METRICS_COUNTRIES: readonly MetricsCountry[] = [
  country('US', 840, 'United States', 'en', ['USA', 'U.S.', 'U.S.A.', 'UNITED STATES OF AMERICA', 'AMERICA']),
  country('CA', 124, 'Canada', 'en'),
  country('GB', 826, 'United Kingdom', 'en', ['UK', 'U.K.', 'GREAT BRITAIN', 'ENGLAND', 'SCOTLAND', 'WALES', 'NORTHERN IRELAND']),
  country('IE', 372, 'Ireland', 'en'),
  country('AU', 36, 'Australia', 'en'),
  country('NZ', 554, 'New Zealand', 'en'),
  country('ZA', 710, 'South Africa', 'en'),
  country('IN', 356, 'India', 'en'),
  country('SG', 702, 'Singapore', 'en'),
  country('DE', 276, 'Germany', 'de', ['DEUTSCHLAND']),
  country('AT', 40, 'Austria', 'de', ['ÖSTERREICH']),
  country('CH', 756, 'Switzerland', 'de', ['SCHWEIZ']),
  country('FR', 250, 'France', 'fr'),
  country('BE', 56, 'Belgium', 'nl', ['BELGIË', 'BELGIQUE']),
  country('NL', 528, 'Netherlands', 'nl', ['NEDERLAND', 'THE NETHERLANDS', 'HOLLAND']),
  country('ES', 724, 'Spain', 'es', ['ESPAÑA']),
  country('IT', 380, 'Italy', 'it', ['ITALIA']),
  country('PT', 620, 'Portugal', 'pt'),
  country('MX', 484, 'Mexico', 'es', ['MÉXICO']),
  country('BR', 76, 'Brazil', 'pt', ['BRASIL']),
  country('SE', 752, 'Sweden', 'sv', ['SVERIGE']),
  country('NO', 578, 'Norway', 'no', ['NORGE']),
  country('DK', 208, 'Denmark', 'da', ['DANMARK']),
  country('FI', 246, 'Finland', 'fi', ['SUOMI']),
  country('PL', 616, 'Poland', 'pl', ['POLSKA']),
]

/** Without a setting or a client location that names a country: the United States. */
export const DEFAULT_METRICS_COUNTRY: MetricsCountry = METRICS_COUNTRIES[0]!

/** The client setting that chooses the market: a country code (GB), name (United Kingdom) or location code (2826). */
export const METRICS_COUNTRY_SETTING = 'keyword_metrics_country'

const US_STATES = new Set(
  (
    'AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX ' +
    'UT VT VA WA WV WI WY DC'
  ).split(' '),
)
const US_STATE_NAMES = new Set(
  (
    'ALABAMA,ALASKA,ARIZONA,ARKANSAS,CALIFORNIA,COLORADO,CONNECTICUT,DELAWARE,FLORIDA,GEORGIA,HAWAII,IDAHO,ILLINOIS,' +
    'INDIANA,IOWA,KANSAS,KENTUCKY,LOUISIANA,MAINE,MARYLAND,MASSACHUSETTS,MICHIGAN,MINNESOTA,MISSISSIPPI,MISSOURI,' +
    'MONTANA,NEBRASKA,NEVADA,NEW HAMPSHIRE,NEW JERSEY,NEW MEXICO,NEW YORK,NORTH CAROLINA,NORTH DAKOTA,OHIO,OKLAHOMA,' +
    'OREGON,PENNSYLVANIA,RHODE ISLAND,SOUTH CAROLINA,SOUTH DAKOTA,TENNESSEE,TEXAS,UTAH,VERMONT,VIRGINIA,WASHINGTON,' +
    'WEST VIRGINIA,WISCONSIN,WYOMING,DISTRICT OF COLUMBIA'
  ).split(','),
)
/** Canadian provinces and territories (none is also a US state code). */
const CA_PROVINCES = new Set('AB BC MB NB NL NS NT NU ON PE QC SK YT'.split(' '))

const normalized = (text: string) => text.normalize('NFKC').trim().replace(/\s+/g, ' ').toUpperCase()

/** The country a code, name or location code names; undefined when none of ours. */
export function metricsCountryNamed(text: string): MetricsCountry | undefined {
  const value = normalized(text)
  if (value === '') return undefined
  if (/^\d+$/.test(value)) return METRICS_COUNTRIES.find((c) => c.location_code === Number(value))
  return METRICS_COUNTRIES.find((c) => c.aliases.includes(value))
}

/** The country of a Google Ads location code; undefined when none of ours. */
export function metricsCountryByCode(locationCode: number): MetricsCountry | undefined {
  return METRICS_COUNTRIES.find((c) => c.location_code === locationCode)
}

export interface ClientPlace {
  readonly country: string
  readonly state: string
}

/** The country one client location is in: its country field, else a US state or Canadian province. */
function countryOfPlace(place: ClientPlace): MetricsCountry | undefined {
  const named = metricsCountryNamed(place.country)
  if (named) return named
  if (place.country.trim() !== '') return undefined
  const state = normalized(place.state)
  if (US_STATES.has(state) || US_STATE_NAMES.has(state)) return metricsCountryNamed('US')
  if (CA_PROVINCES.has(state)) return metricsCountryNamed('CA')
  return undefined
}

export type LocationChoice = 'setting' | 'client_location' | 'default'

/**
 * The client's metrics market: its `keyword_metrics_country` setting when that names a country we know,
 * else the country of its first location that names one (in the order they were added), else the United
 * States. Pure: the same client facts give the same market on the write side and in every read.
 */
export function metricsLocationFor(client: {
  readonly settings: Readonly<Record<string, string>>
  readonly locations: readonly ClientPlace[]
}): { readonly location: MetricsLocation; readonly chosenBy: LocationChoice } {
  const setting = client.settings[METRICS_COUNTRY_SETTING]
  const fromSetting = setting === undefined ? undefined : metricsCountryNamed(setting)
  if (fromSetting) return { location: locationOf(fromSetting), chosenBy: 'setting' }
  for (const place of client.locations) {
    const found = countryOfPlace(place)
    if (found) return { location: locationOf(found), chosenBy: 'client_location' }
  }
  return { location: locationOf(DEFAULT_METRICS_COUNTRY), chosenBy: 'default' }
}

export function locationOf(c: MetricsCountry): MetricsLocation {
  return { location_code: c.location_code, location_name: c.location_name, language_code: c.language_code }
}
