import t from 'tap'
import {
  EventStoreDbEventStore,
  compareEsdbPositions,
  formatEsdbPosition,
  parseEsdbPosition,
} from '../../commands/event-store/eventstoredb.js'
import { eventStoreContract } from './event-store-contract.js'

t.test('positions serialize the $all commit/prepare pair and compare commit first (no server needed)', async (t) => {
  const position = { commit: 18446744073709551615n, prepare: 42n }
  t.equal(formatEsdbPosition(position), 'C:18446744073709551615/P:42')
  t.same(parseEsdbPosition('C:18446744073709551615/P:42'), position)
  t.equal(compareEsdbPositions({ commit: 10n, prepare: 3n }, { commit: 10n, prepare: 4n }), -1)
  t.equal(compareEsdbPositions({ commit: 11n, prepare: 0n }, { commit: 10n, prepare: 99n }), 1)
  t.equal(compareEsdbPositions({ commit: 7n, prepare: 7n }, { commit: 7n, prepare: 7n }), 0)
  t.throws(() => parseEsdbPosition('12/34'), TypeError, 'a PostgreSQL position is refused')
})

const url = process.env.EVENTSTORE_URL

if (!url) {
  t.comment('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set (e.g. EVENTSTORE_URL=esdb://localhost:2113?tls=false)')
  t.pass('EventStoreDB contract suite skipped: EVENTSTORE_URL is not set')
} else {
  // Stream names are unique per run, so the suite can share a server with other data.
  eventStoreContract(t, async (t) => {
    const store = EventStoreDbEventStore.fromConnectionString(url)
    t.teardown(() => store.close())
    return store
  })
}
