/**
 * The organization export aggregate and its rules (domain/exports) in given/when/then form: recorded once
 * per job, expired only after its 7 days and only once; file names; the secret-column deny-list.
 */
import t from 'tap'
import type { OrgExportEvent } from '../../domain/exports/events.js'
import { EXPORT_FILENAME, exportExpiresAt, exportFilename, isExportExpired, orgExport, type ProducedExport } from '../../domain/exports/org-export.js'
import { isSecretColumn } from '../../domain/exports/secret-columns.js'
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
  for (const bad of ['../x.zip', 'org-4-20261120T093005Z-job-12.zip/..', 'org-0-20261120T093005Z-job-12.zip', 'org-4-20261120T093005Z-job-12.ZIP']) t.notOk(EXPORT_FILENAME.test(bad), bad)
})

t.test('RecordExport: once per job', async (t) => {
  t.test('records it', async (t) => given().when({ type: 'RecordExport', export: produced }).then(t, [producedEvent]))
  t.test('a re-run records nothing', async (t) => given(producedEvent).when({ type: 'RecordExport', export: { ...produced, size: 5 } }).then(t, []))
})

t.test('ExpireExport: after 7 days, once', async (t) => {
  t.test('too early: nothing', async (t) => given(producedEvent).when({ type: 'ExpireExport', now: new Date('2026-11-27T09:00:00.000Z') }).then(t, []))
  t.test('past expires_at', async (t) => given(producedEvent).when({ type: 'ExpireExport', now: new Date('2026-11-27T09:30:05.000Z') }).then(t, [expiredEvent]))
  t.test('twice: nothing', async (t) => given(producedEvent, expiredEvent).when({ type: 'ExpireExport', now: new Date('2026-12-30T00:00:00.000Z') }).then(t, []))
  t.test('no export: nothing', async (t) => given().when({ type: 'ExpireExport', now: new Date('2026-12-30T00:00:00.000Z') }).then(t, []))
})

t.test('the secret-column deny-list', async (t) => {
  for (const [table, column] of [['api_keys', 'key_hash'], ['api_keys', 'key_hint'], ['webhooks', 'secret_hint'], ['oidc_providers', 'client_secret'], ['users', 'password_hash'], ['oauth_grants', 'refresh_token_sha256'], ['anything', 'encrypted_secret']]) {
    t.ok(isSecretColumn(table!, column!), `${table}.${column} is excluded`)
  }
  for (const [table, column] of [['clients', 'name'], ['aeo_queries', 'prompt_key'], ['aeo_items', 'item_key'], ['keywords', 'keyword_key'], ['aeo_agents', 'agent_key'], ['client_settings', 'key']]) {
    t.notOk(isSecretColumn(table!, column!), `${table}.${column} is data`)
  }
})
