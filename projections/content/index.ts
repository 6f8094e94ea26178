import type { Projector } from '../projector.js'
import { referenceDocsProjectors } from './reference-docs/projector.js'
import { blogProjectors } from './blog/projector.js'
import { imagesProjectors } from './images/projector.js'

/** The content area's projectors; each writes only its own tables. */
export const contentProjectors: readonly Projector[] = [...referenceDocsProjectors, ...blogProjectors, ...imagesProjectors]
