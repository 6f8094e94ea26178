/**
 * Setup for the captures and tracker HTTP tests: an organization with a client (services, locations),
 * and questions appended straight to the question-set stream in the questions part's event contract
 * (domain/aeo/questions/events.ts): add_aeo_query cannot set a question's location, which the findings use.
 */
import { randomUUID } from 'node:crypto'
import { promptKey } from '../../domain/aeo/prompt.js'
import type { TestSystem } from '../support/system.js'
import { orgWithKey, type OrgWithKey } from './helpers.js'
import * as f from '../domain/aeo-analysis-fixtures.js'
import { readModelsAt } from '../support/read-models.js'

export { f }

export interface Question {
  readonly prompt: string
  readonly service: string
  readonly location: string
  readonly kind: 'best-of' | 'comparison' | 'cost' | 'near-me' | 'trust' | 'custom'
}

export async function appendQuestionEvent(ts: TestSystem, clientId: number, orgId: number, type: string, data: Record<string, unknown>) {
  const result = await ts.system.write.store.append(
    `aeo_questions-${clientId}`,
    [
      {
        type,
        data,
        metadata: {
          org_id: orgId,
          actor: { kind: 'system', id: 'test' },
          correlation_id: randomUUID(),
          causation_id: null,
          request_id: null,
          occurred_at: ts.system.write.clock().toISOString(),
          schema_version: 1,
        },
      },
    ],
    'any',
  )
  await readModelsAt(ts, result.position)
}

export async function addQuestion(ts: TestSystem, clientId: number, orgId: number, q: Question = f.bestOf as Question): Promise<number> {
  const queryId = await ts.system.write.ids.next('aeo_query')
  await appendQuestionEvent(ts, clientId, orgId, 'AeoQuestionAdded', {
    client_id: clientId,
    query_id: queryId,
    prompt: q.prompt,
    prompt_key: promptKey(q.prompt),
    engine: 'chatgpt-web',
    service: q.service,
    location: q.location,
    kind: q.kind,
    priority: 50,
    active: true,
    source: 'manual',
  })
  return queryId
}

export interface Enrolled {
  readonly org: OrgWithKey
  readonly clientId: number
  readonly queryId: number
  readonly costQueryId: number
}

/** Acme Plumbing (the analysis fixtures' client) with a best-of and a cost question. */
export async function enrolAcme(ts: TestSystem, orgName = 'Acme Agency'): Promise<Enrolled> {
  const org = await orgWithKey(ts, orgName)
  const clientId = await ts.call<number>(
    'add_client',
    { client: { name: f.acme.name, website_url: f.acme.websiteUrl, services: [...f.acme.services], locations: [...f.acme.locations] } },
    org.key,
  )
  const queryId = await addQuestion(ts, clientId, org.orgId)
  const costQueryId = await addQuestion(ts, clientId, org.orgId, f.costQ as Question)
  return { org, clientId, queryId, costQueryId }
}
