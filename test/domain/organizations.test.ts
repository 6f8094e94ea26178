import t from 'tap'
import type { OrganizationEvent } from '../../domain/organizations/events.js'
import { organization, organizationStream } from '../../domain/organizations/organization.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const given = spec(organization)

const created = (org_id: number, name: string): OrganizationEvent => ({ type: 'OrganizationCreated', data: { org_id, name } })

t.test('the stream of an organization is organization-<id>', async (t) => {
  t.equal(organizationStream(12), 'organization-12')
})

t.test('CreateOrganization on a new stream is one OrganizationCreated', async (t) => {
  given().when({ type: 'CreateOrganization', org_id: 12, name: 'Acme Agency' }).then(t, [created(12, 'Acme Agency')])
})

t.test('CreateOrganization twice: already_exists, whatever the name', async (t) => {
  given(created(12, 'Acme Agency'))
    .when({ type: 'CreateOrganization', org_id: 12, name: 'Acme Agency' })
    .thenThrows(t, 'already_exists', { message: 'Organization already exists', detail: 'organization 12' })
  given(created(12, 'Acme Agency')).when({ type: 'CreateOrganization', org_id: 12, name: 'Other' }).thenThrows(t, 'already_exists')
})

t.test('the folded state is the organization as created', async (t) => {
  t.strictSame(organization.initialState(), { exists: false, name: '' })
  t.strictSame(fold(organization, [created(12, 'Acme Agency')]), { exists: true, name: 'Acme Agency' })
})
