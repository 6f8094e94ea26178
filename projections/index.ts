import { activityProjector } from './activity/projector.js'
import { aeoProjectors } from './aeo/index.js'
import { apiKeysProjector } from './api-keys/projector.js'
import { clientsProjector } from './clients/projector.js'
import { jobsProjector } from './jobs/projector.js'
import { keywordsProjector } from './keywords/projector.js'
import { adCopyProjector } from './ad-copy/projector.js'
import { organizationsProjector } from './organizations/projector.js'
import { pagesProjector } from './pages/projector.js'
import { peopleProjector } from './people/projector.js'
import type { Projector } from './projector.js'
import { sandboxProjector } from './sandbox/projector.js'
import { siteEditsProjector } from './site-edits/projector.js'
import { ssoProjector } from './sso/projector.js'
import { webhooksProjector } from './webhooks/projector.js'
import { exportsProjector } from './exports/projector.js'
import { oauthProjector } from './oauth/projector.js'
import { searchProjectors } from './search/index.js'
import { monitoringProjectors } from './monitoring/index.js'
import { planningProjectors } from './planning/index.js'
import { publishingProjectors } from './publishing/index.js'
import { contentProjectors } from './content/index.js'

/** Every projector of the main group, applied in this order to each batch of events. */
export const projectors: readonly Projector[] = [
  organizationsProjector,
  apiKeysProjector,
  clientsProjector,
  ...aeoProjectors,
  jobsProjector,
  keywordsProjector,
  adCopyProjector,
  pagesProjector,
  siteEditsProjector,
  webhooksProjector,
  exportsProjector,
  peopleProjector,
  ssoProjector,
  oauthProjector,
  ...searchProjectors,
  ...monitoringProjectors,
  ...planningProjectors,
  ...publishingProjectors,
  ...contentProjectors,
  activityProjector,
  // Last: a sandbox reset deletes rows the projectors above wrote (see projections/sandbox/projector.ts).
  sandboxProjector,
]

export const MAIN_GROUP = 'main'
