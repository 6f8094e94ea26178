/**
 * The organization export aggregate and its rules (domain/exports) in given/when/then form: recorded once
 * per job, expired only after its 7 days and only once; file names; the secret-column deny-list, and the
 * same rule applied to the events an auditor's replay prints.
 */
import t from 'tap'
import type { OrgExportEvent } from '../../domain/exports/events.js'
import {
  EXPORT_FILENAME,
  exportExpiresAt,
  exportFilename,
  isExportExpired,
  orgExport,
  type ProducedExport,
} from '../../domain/exports/org-export.js'
import { redactSecretFields } from '../../domain/exports/redact.js'
import { isSecretField, SECRET_NAME } from '../../domain/exports/secret-columns.js'
import { spec } from './given-when-then.js'

const given = spec(orgExport)
const created = new Date('2026-11-20T09:30:05.000Z')
const filename = exportFilename(4, 12, created)
const produced: ProducedExport = {
  job_id: 12,
  org_id: 4,
  filename,
  path: `exports/4/${filename}`,
  size: 100,
  sha256: 'b'.repeat(64),
  tables: 3,
  rows: 10,
  position: '7',
  created_at: created.toISOString(),
  expires_at: exportExpiresAt(created).toISOString(),
}
const producedEvent: OrgExportEvent = { type: 'OrgExportProduced', data: produced }
const expiredEvent: OrgExportEvent = { type: 'OrgExportExpired', data: { job_id: 12, org_id: 4, filename } }

t.test('retention and names', async (t) => {
  t.equal(exportExpiresAt(created).toISOString(), '2026-11-27T09:30:05.000Z', '7 days')
  t.notOk(isExportExpired(exportExpiresAt(created), new Date('2026-11-27T09:30:04.999Z')))
  t.ok(isExportExpired(exportExpiresAt(created), new Date('2026-11-27T09:30:05.000Z')), 'gone at expires_at')
  t.equal(filename, 'org-4-20261120T093005Z-job-12.zip')
  t.ok(EXPORT_FILENAME.test(filename))
  for (const bad of [
    '../x.zip',
    'org-4-20261120T093005Z-job-12.zip/..',
    'org-0-20261120T093005Z-job-12.zip',
    'org-4-20261120T093005Z-job-12.ZIP',
  ])
    t.notOk(EXPORT_FILENAME.test(bad), bad)
})

t.test('RecordExport: once per job', async (t) => {
  t.test('records it', async (t) => given().when({ type: 'RecordExport', export: produced }).then(t, [producedEvent]))
  t.test('a re-run records nothing', async (t) =>
    given(producedEvent)
      .when({ type: 'RecordExport', export: { ...produced, size: 5 } })
      .then(t, []),
  )
})

t.test('ExpireExport: after 7 days, once', async (t) => {
  t.test('too early: nothing', async (t) =>
    given(producedEvent)
      .when({ type: 'ExpireExport', now: new Date('2026-11-27T09:00:00.000Z') })
      .then(t, []),
  )
  t.test('past expires_at', async (t) =>
    given(producedEvent)
      .when({ type: 'ExpireExport', now: new Date('2026-11-27T09:30:05.000Z') })
      .then(t, [expiredEvent]),
  )
  t.test('twice: nothing', async (t) =>
    given(producedEvent, expiredEvent)
      .when({ type: 'ExpireExport', now: new Date('2026-12-30T00:00:00.000Z') })
      .then(t, []),
  )
  t.test('no export: nothing', async (t) =>
    given()
      .when({ type: 'ExpireExport', now: new Date('2026-12-30T00:00:00.000Z') })
      .then(t, []),
  )
})

t.test('the secret-column deny-list', async (t) => {
  for (const [table, column] of [
    ['api_keys', 'key_hash'],
    ['api_keys', 'key_hint'],
    ['webhooks', 'secret_hint'],
    ['oidc_providers', 'client_secret'],
    ['users', 'password_hash'],
    ['oauth_grants', 'refresh_token_sha256'],
    ['anything', 'encrypted_secret'],
  ]) {
    t.ok(isSecretField(table!, column!), `${table}.${column} is excluded`)
  }
  for (const [table, column] of [
    ['clients', 'name'],
    ['aeo_queries', 'prompt_key'],
    ['aeo_items', 'item_key'],
    ['keywords', 'keyword_key'],
    ['aeo_agents', 'agent_key'],
    ['client_settings', 'key'],
  ]) {
    t.notOk(isSecretField(table!, column!), `${table}.${column} is data`)
  }
})

t.test('an event is redacted by the same rule as an exported row (what ops replay prints)', async (t) => {
  const apiKey = {
    key_id: 3,
    org_id: 4,
    name: 'CI',
    notes: '',
    scopes: ['read'],
    key_hash: 'a'.repeat(64),
    key_hint: 'rrk_abcd',
    created_by_user_id: null,
  }
  t.same(
    redactSecretFields('ApiKeyCreated', apiKey),
    {
      value: { key_id: 3, org_id: 4, name: 'CI', notes: '', scopes: ['read'], created_by_user_id: null },
      redacted: ['key_hash', 'key_hint'],
    },
    'the key hash and hint are removed and named',
  )
  const nested = {
    provider_id: 1,
    settings: { issuer: 'https://idp.example.com', client_secret_sealed: 'v1.x' },
    codes: [{ recovery_code_hash: 'h', used: false }],
  }
  t.same(
    redactSecretFields('SsoProviderAdded', nested),
    {
      value: { provider_id: 1, settings: { issuer: 'https://idp.example.com' }, codes: [{ used: false }] },
      redacted: ['settings.client_secret_sealed', 'codes.0.recovery_code_hash'],
    },
    'at any depth, named by path',
  )
  const client = { client_id: 9, client_name: 'Agent', token_endpoint_auth_method: 'none' }
  t.same(
    redactSecretFields('OAuthClientRegistered', client),
    { value: client, redacted: [] },
    'a field allowed by name with its reason stays',
  )
  t.same(
    redactSecretFields('ClientAdded', { client_id: 1, name: 'Alpha' }),
    { value: { client_id: 1, name: 'Alpha' }, redacted: [] },
    'plain data is untouched',
  )
  for (const [type, field] of [
    ['WebhookRegistered', 'secret_sealed'],
    ['UserPasswordSet', 'password_hash'],
    ['OAuthTokensIssued', 'refresh_token_hash'],
    ['UserSignedIn', 'session_hash'],
  ]) {
    t.ok(isSecretField(type!, field!), `${type}.${field} is redacted`)
  }
  t.ok(SECRET_NAME.test('totp_secret_sealed'))
})
