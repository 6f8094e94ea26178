import t from 'tap'
import type { OrganizationEvent } from '../../domain/organizations/events.js'
import { NO_BRANDING } from '../../domain/organizations/branding.js'
import { organization, organizationStream } from '../../domain/organizations/organization.js'
import { fold } from '../../domain/shared/aggregate.js'
import { spec } from './given-when-then.js'

const given = spec(organization)

const created = (org_id: number, name: string): OrganizationEvent => ({ type: 'OrganizationCreated', data: { org_id, name } })

t.test('the stream of an organization is organization-<id>', async (t) => {
  t.equal(organizationStream(12), 'organization-12')
})

t.test('CreateOrganization on a new stream is one OrganizationCreated', async (t) => {
  given()
    .when({ type: 'CreateOrganization', org_id: 12, name: 'Acme Agency' })
    .then(t, [created(12, 'Acme Agency')])
})

t.test('CreateOrganization twice: already_exists, whatever the name', async (t) => {
  given(created(12, 'Acme Agency'))
    .when({ type: 'CreateOrganization', org_id: 12, name: 'Acme Agency' })
    .thenThrows(t, 'already_exists', { message: 'Organization already exists', detail: 'organization 12' })
  given(created(12, 'Acme Agency')).when({ type: 'CreateOrganization', org_id: 12, name: 'Other' }).thenThrows(t, 'already_exists')
})

t.test('the folded state is the organization as created', async (t) => {
  t.strictSame(organization.initialState(), { exists: false, name: '', branding: NO_BRANDING })
  t.strictSame(fold(organization, [created(12, 'Acme Agency')]), { exists: true, name: 'Acme Agency', branding: NO_BRANDING })
})

const branded = (
  org_id: number,
  data: Omit<Extract<OrganizationEvent, { type: 'OrganizationBrandingUpdated' }>['data'], 'org_id'>,
): OrganizationEvent => ({
  type: 'OrganizationBrandingUpdated',
  data: { org_id, ...data },
})

t.test('UpdateBranding records only the fields that change', async (t) => {
  given(created(12, 'Acme Agency'))
    .when({ type: 'UpdateBranding', org_id: 12, changes: { name: 'Acme Reports', accent_color: '#ff0066' } })
    .then(t, [branded(12, { name: 'Acme Reports', accent_color: '#ff0066' })])
  given(created(12, 'Acme Agency'), branded(12, { name: 'Acme Reports', accent_color: '#ff0066' }))
    .when({
      type: 'UpdateBranding',
      org_id: 12,
      changes: { name: 'Acme Reports', accent_color: '#00aa00', logo_url: 'https://cdn.example.com/l.png' },
    })
    .then(t, [branded(12, { accent_color: '#00aa00', logo_url: 'https://cdn.example.com/l.png' })])
})

t.test('UpdateBranding with nothing new is a no-op; null clears a field', async (t) => {
  const history = [created(12, 'Acme Agency'), branded(12, { name: 'Acme Reports', logo_url: 'https://cdn.example.com/l.png' })]
  given(...history)
    .when({ type: 'UpdateBranding', org_id: 12, changes: { name: 'Acme Reports' } })
    .thenNothingHappens(t)
  given(...history)
    .when({ type: 'UpdateBranding', org_id: 12, changes: {} })
    .thenNothingHappens(t)
  given(created(12, 'Acme Agency'))
    .when({ type: 'UpdateBranding', org_id: 12, changes: { logo_url: null } })
    .thenNothingHappens(t)
  given(...history)
    .when({ type: 'UpdateBranding', org_id: 12, changes: { logo_url: null } })
    .then(t, [branded(12, { logo_url: null })])
  t.strictSame(fold(organization, [...history, branded(12, { logo_url: null })]).branding, {
    name: 'Acme Reports',
    logo_url: null,
    accent_color: null,
  })
})

t.test('UpdateBranding of a missing organization: not_found', async (t) => {
  given()
    .when({ type: 'UpdateBranding', org_id: 99, changes: { name: 'X' } })
    .thenThrows(t, 'not_found', { detail: 'organization 99 not found' })
})
