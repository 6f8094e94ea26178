import { z } from 'zod'
import { DomainError } from '../../shared/errors.js'

/**
 * The values of an Elementor page (a page of the project's WordPress site built with Elementor), as the
 * site gives them. The `_elementor_data` text is capped so one page's event stays well under the request limit.
 */
export const ELEMENTOR_DATA_MAX_BYTES = 512 * 1024
export const ELEMENTOR_TITLE_MAX_LENGTH = 500
export const ELEMENTOR_SLUG_MAX_LENGTH = 200
export const ELEMENTOR_STATUS_MAX_LENGTH = 20
export const ELEMENTOR_LINK_MAX_LENGTH = 2000

/** WordPress's `modified_gmt`: `YYYY-MM-DDTHH:MM:SS`, UTC, no zone (compared as WordPress gives it). */
export const MODIFIED_GMT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/
export const ModifiedGmt = z.string().regex(MODIFIED_GMT_PATTERN)

/** A sha256 as lowercase hex (computed by the command: domain code has no crypto). */
export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/)

/** How many widgets of each widgetType the page holds. */
export const WidgetCounts = z.record(z.string(), z.number().int().min(0))
export type WidgetCounts = z.infer<typeof WidgetCounts>

const bytesOf = (text: string) => new TextEncoder().encode(text).length

/**
 * The `_elementor_data` text parsed, if it is what Elementor stores: at most ELEMENTOR_DATA_MAX_BYTES (UTF-8)
 * and a JSON array of elements. Refused otherwise (validation_failed), before anything is recorded.
 */
export function parseElementorData(text: string): unknown[] {
  const bytes = bytesOf(text)
  if (bytes > ELEMENTOR_DATA_MAX_BYTES) {
    throw new DomainError('validation_failed', 'elementor_data is too large', `${bytes} bytes; at most ${ELEMENTOR_DATA_MAX_BYTES}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new DomainError('validation_failed', 'elementor_data is not JSON', 'the _elementor_data text must parse as a JSON array')
  }
  if (!Array.isArray(parsed)) {
    throw new DomainError('validation_failed', 'elementor_data is not a JSON array', 'Elementor stores a page as an array of elements')
  }
  return parsed
}

/** The UTF-8 size of the `_elementor_data` text (what the cap counts and the list shows). */
export const elementorDataBytes = bytesOf
