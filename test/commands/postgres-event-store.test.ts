import t from 'tap'
import { PostgresEventStore } from '../../commands/event-store/postgres.js'
import { createTestDatabase } from '../support/database.js'
import { eventStoreContract } from './event-store-contract.js'

eventStoreContract(t, async (t) => {
  const { url, pool } = await createTestDatabase(t)
  const store = new PostgresEventStore({ connectionString: url, pool })
  t.teardown(() => store.close())
  return store
})
