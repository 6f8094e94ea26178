import type { AnyRpc } from '../../registry.js'
import { referenceDocsRpcs } from './reference-docs.js'
import { blogRpcs } from './blog.js'
import { imagesRpcs } from './images.js'

/** The content area's methods. */
export const contentRpcs: readonly AnyRpc[] = [...referenceDocsRpcs, ...blogRpcs, ...imagesRpcs]
