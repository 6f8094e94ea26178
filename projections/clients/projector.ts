import type { Projector } from '../projector.js'
import { applyClientEvents, CLIENT_EVENTS } from './batch.js'

/**
 * clients, client_services, client_locations and client_settings. A whole batch is folded over the rows it
 * touches in one statement per table (batch.ts).
 */
export const clientsProjector: Projector = {
  name: 'clients',
  // Standalone: it reads only its own tables, and only the sandbox reset (listed after it) touches them.
  standalone: true,
  handles: CLIENT_EVENTS,
  apply: applyClientEvents,
}
