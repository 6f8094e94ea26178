/**
 * Where a search is localized. Both providers take Google's canonical location names ("Austin,Texas,United
 * States"), while a client's location is usually written as an agency writes it ("Austin, TX"): the US state
 * and a few country abbreviations are spelled out. A client without locations is checked nationally, in the
 * United States unless told otherwise.
 */

import { US_STATES } from '../../shared/us-states.js'

export interface ClientLocation {
  readonly name: string
  readonly city: string
  readonly state: string
  readonly country: string
}

const COUNTRIES: Readonly<Record<string, string>> = {
  US: 'United States',
  USA: 'United States',
  'U.S.': 'United States',
  'U.S.A.': 'United States',
  'UNITED STATES': 'United States',
  CA: 'Canada',
  CANADA: 'Canada',
  UK: 'United Kingdom',
  GB: 'United Kingdom',
  'UNITED KINGDOM': 'United Kingdom',
  AU: 'Australia',
  AUSTRALIA: 'Australia',
}

/** A national search's country. */
export const NATIONAL_COUNTRY = 'United States'

/** The canonical parts of a location: city, region and country spelled out (empty parts left out). */
export function locationParts(location: ClientLocation): string[] {
  let city = location.city.trim()
  let region = location.state.trim()
  let country = location.country.trim()
  if (city === '' && region === '' && country === '') {
    // Only a display name ("Austin, TX"): its comma-separated parts, in that order.
    const parts = location.name.split(',').map((p) => p.trim())
    ;[city = '', region = '', country = ''] = parts
  }
  const stateName = US_STATES[region.toUpperCase()]
  if (stateName) region = stateName
  const countryName = COUNTRIES[country.toUpperCase()]
  if (countryName) country = countryName
  else if (country === '' && (stateName || Object.values(US_STATES).includes(region))) country = 'United States'
  return [city, region, country].filter((p) => p !== '')
}

/** DataForSEO's location_name ("Austin,Texas,United States"); the national country when none. */
export function dataForSeoLocationName(location: ClientLocation | null): string {
  if (location === null) return NATIONAL_COUNTRY
  const parts = locationParts(location)
  return parts.length === 0 ? NATIONAL_COUNTRY : parts.join(',')
}

/** SerpApi's location ("Austin, Texas, United States"); null for a national search (gl alone localizes it). */
export function serpApiLocation(location: ClientLocation | null): string | null {
  if (location === null) return null
  const parts = locationParts(location)
  return parts.length === 0 ? null : parts.join(', ')
}

/** The two-letter country (gl) of a location: `us` unless the location names another country it knows. */
export function countryCode(location: ClientLocation | null): string {
  const country = location === null ? NATIONAL_COUNTRY : (locationParts(location).at(-1) ?? NATIONAL_COUNTRY)
  switch (country) {
    case 'Canada':
      return 'ca'
    case 'United Kingdom':
      return 'uk'
    case 'Australia':
      return 'au'
    default:
      return 'us'
  }
}
