import { z } from 'zod'
import { Id } from '../../shared/values.js'

/*
 * Which page serves which keyword. A client's links are one stream, `keyword_pages-<client_id>`, because
 * "exactly one primary page per linked keyword" is decided against every link of the keyword, and a page
 * serves keywords of its own client only.
 */

/**
 * associate_keyword_page: a new link. `primary`: the page is now the keyword's primary page (the first
 * link of a keyword always is; a later one when asked), and the former primary, if any, is not.
 */
export const KeywordPageAssociated = z.object({ client_id: Id, keyword_id: Id, page_id: Id, primary: z.boolean() })

/**
 * The keyword's primary page moved to an existing link: associate_keyword_page with primary true on a link
 * that was not primary, or dissociating the primary promoting the oldest remaining link.
 */
export const KeywordPrimaryPageSet = z.object({ client_id: Id, keyword_id: Id, page_id: Id })

/** dissociate_keyword_page: the link is gone (a primary one is followed by the promotion, if any link is left). */
export const KeywordPageDissociated = z.object({ client_id: Id, keyword_id: Id, page_id: Id })

export const associationsEventSchemas = { KeywordPageAssociated, KeywordPrimaryPageSet, KeywordPageDissociated } as const

type Schemas = typeof associationsEventSchemas
export type AssociationEvent = { [K in keyof Schemas]: { type: K; data: z.infer<Schemas[K]> } }[keyof Schemas]
