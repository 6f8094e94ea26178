import { DomainError } from '../../shared/errors.js'
import { ELEMENTOR_JSON_MAX_BYTES, FIELD_TEXT_MAX_LENGTH, type SectionField } from './values.js'

/*
 * The pure rules a section template obeys: its Elementor data parses, and its placeholders and its declared
 * fields are the same set (a placeholder nobody fills would reach the site as `{{…}}`; a field with no
 * placeholder would be filled for nothing).
 */

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]{0,39})\s*\}\}/g

function invalid(detail: string): never {
  throw new DomainError('section_template_invalid', 'The section template is not valid', detail)
}

/** The field keys `{{key}}` placeholders name in the Elementor data, in first-use order. */
export function placeholdersOf(elementorJson: string): string[] {
  return [...new Set([...elementorJson.matchAll(PLACEHOLDER)].map((m) => m[1]!))]
}

/** Refuses Elementor data that is too large, does not parse, or whose placeholders and fields differ. */
export function assertSectionTemplate(fields: readonly SectionField[], elementorJson: string): void {
  const keys = fields.map((f) => f.key)
  const duplicate = keys.find((k, i) => keys.indexOf(k) !== i)
  if (duplicate) invalid(`field ${duplicate} is declared twice`)
  for (const f of fields) {
    if (f.kind !== 'text' && f.max_length !== null) invalid(`field ${f.key}: max_length is for text fields only`)
  }
  if (new TextEncoder().encode(elementorJson).length > ELEMENTOR_JSON_MAX_BYTES)
    invalid(`elementor_json is over ${ELEMENTOR_JSON_MAX_BYTES} bytes`)
  let data: unknown
  try {
    data = JSON.parse(elementorJson)
  } catch (error) {
    invalid(`elementor_json does not parse as JSON: ${(error as Error).message}`)
  }
  if (typeof data !== 'object' || data === null) invalid('elementor_json must be an Elementor element or a list of them')
  const used = placeholdersOf(elementorJson)
  const undeclared = used.filter((k) => !keys.includes(k))
  if (undeclared.length) invalid(`elementor_json uses {{${undeclared.join('}}, {{')}}} without a field`)
  const unused = keys.filter((k) => !used.includes(k))
  if (unused.length)
    invalid(
      `field${unused.length > 1 ? 's' : ''} ${unused.join(', ')} ha${unused.length > 1 ? 've' : 's'} no {{placeholder}} in elementor_json`,
    )
}

function fieldsInvalid(detail: string): never {
  throw new DomainError('template_page_fields_invalid', "A section's filled fields do not fit its template", detail)
}

const LINK = /^(https?:\/\/[^\s]+|\/[^\s]*|#[^\s]*|mailto:[^\s]+|tel:[^\s]+)$/
const HTTP_URL = /^https?:\/\/[^\s]+$/

/**
 * Refuses filled values the section template's fields do not take: an unknown key, text over its limit, an
 * image that is not an http(s) URL, a link that is neither a URL, a site path, an anchor, mailto: nor tel:.
 * A required field left empty is allowed: a page is filled over several edits (the page view names what is missing).
 */
export function assertFilledFields(where: string, fields: readonly SectionField[], values: Readonly<Record<string, string>>): void {
  for (const [key, value] of Object.entries(values)) {
    const field = fields.find((f) => f.key === key)
    if (!field) fieldsInvalid(`${where}: the template has no field ${key}`)
    if (value === '') continue
    if (field.kind === 'text' && value.length > (field.max_length ?? FIELD_TEXT_MAX_LENGTH)) {
      fieldsInvalid(`${where}.${key}: ${value.length} characters, at most ${field.max_length ?? FIELD_TEXT_MAX_LENGTH}`)
    }
    if (field.kind === 'image' && !HTTP_URL.test(value)) fieldsInvalid(`${where}.${key}: an image is an http(s) URL`)
    if (field.kind === 'link' && !LINK.test(value)) fieldsInvalid(`${where}.${key}: a link is a URL, a /path, a #anchor, mailto: or tel:`)
  }
}

/** The required fields a section leaves empty. */
export function missingRequired(fields: readonly SectionField[], values: Readonly<Record<string, string>>): string[] {
  return fields.filter((f) => f.required && !(values[f.key] ?? '').trim()).map((f) => f.key)
}
