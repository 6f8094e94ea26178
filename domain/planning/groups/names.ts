import { DomainError } from '../../shared/errors.js'
import { GROUP_NAME_MAX_LENGTH } from './events.js'

/** A group's name as stored (spacing collapsed) and its identity: names differing only in case or spacing are the same name. */
export function groupName(text: string): { name: string; key: string } {
  const name = text.trim().replace(/\s+/g, ' ')
  if (name === '') throw new DomainError('validation_failed', 'A group needs a name', 'name is empty')
  if (name.length > GROUP_NAME_MAX_LENGTH) {
    throw new DomainError(
      'validation_failed',
      `A group name is at most ${GROUP_NAME_MAX_LENGTH} characters`,
      `name "${name.slice(0, 40)}…"`,
    )
  }
  return { name, key: name.toLowerCase() }
}
