/**
 * A rule violation raised by `decide`. The code is stable and machine-readable; the HTTP edge maps
 * it to a status through the one error-code registry (read-api/errors.ts). Never carries I/O details.
 */
export class DomainError extends Error {
  readonly code: string
  readonly detail: string | undefined
  /**
   * What the caller can do instead, when it depends on the case (the scopes this caller may grant); absent:
   * the registry's hint for the code.
   */
  readonly hint: string | undefined

  constructor(code: string, message: string, detail?: string, hint?: string) {
    super(message)
    this.name = 'DomainError'
    this.code = code
    this.detail = detail
    this.hint = hint
  }
}

/** Raised when a record does not exist or belongs to another organization: the two answer alike. */
export class NotFoundError extends DomainError {
  constructor(entity: string, id: string | number) {
    super('not_found', 'Not found', `${entity} ${id} not found`)
    this.name = 'NotFoundError'
  }
}
