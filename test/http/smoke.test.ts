import t from 'tap'
import { createOrgWithKey, startTestSystem } from '../support/system.js'

t.test('a client added through the API reads back at once', async (t) => {
  const ts = await startTestSystem(t)
  const { orgId, key } = await createOrgWithKey(ts)
  const clientId = await ts.call<number>('add_client', { client: { name: 'Plumbers', website_url: 'https://plumb.example.com' } }, key)
  const client = await ts.call('get_client', { client_id: clientId }, key)
  t.equal(client.org_id, orgId)
  t.equal(client.name, 'Plumbers')
})
