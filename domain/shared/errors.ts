/**
 * A rule violation raised by `decide`. The code is stable and machine-readable; the HTTP edge maps
 * it to a status through the one error-code registry (read-api/errors.ts). Never carries I/O details.
 */
export class DomainError extends Error {
  readonly code: string
  readonly detail: string | undefined

  constructor(code: string, message: string, detail?: string) {
    super(message)
    this.name = 'DomainError'
    this.code = code
    this.detail = detail
  }
}

/** Raised when a record does not exist or belongs to another organization: the two answer alike. */
export class NotFoundError extends DomainError {
  constructor(entity: string, id: string | number) {
    super('not_found', 'Not found', `${entity} ${id} not found`)
    this.name = 'NotFoundError'
  }
}
