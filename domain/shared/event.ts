/**
 * The envelope every domain event travels in. `data` is validated by the area's zod schema;
 * `metadata` is the same for every area so auditors can replay an organization by `org_id`.
 */
export type ActorKind = 'api_key' | 'oauth' | 'user' | 'system'

export interface Actor {
  readonly kind: ActorKind
  readonly id: string | number | null
}

export interface EventMetadata {
  /** null only for platform-level events (a partner key, the platform itself). */
  readonly org_id: number | null
  readonly actor: Actor
  readonly correlation_id: string
  readonly causation_id: string | null
  readonly request_id: string | null
  /** ISO-8601; time comes in from the edge, never from the domain. */
  readonly occurred_at: string
  readonly schema_version: number
}

/** A domain event as `decide` produces it: a type and its data, nothing else. */
export interface DomainEvent<TType extends string = string, TData = unknown> {
  readonly type: TType
  readonly data: TData
}
