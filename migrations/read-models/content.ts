import type { Kysely } from 'kysely'
import { createReferenceDocsTables } from './content-reference-docs.js'
import { createBlogTables } from './content-blog.js'
import { createImagesTables } from './content-images.js'

/** The content area's read models. */
export async function createContentTables(db: Kysely<any>, schema: string): Promise<void> {
  await createReferenceDocsTables(db, schema)
  await createBlogTables(db, schema)
  await createImagesTables(db, schema)
}
