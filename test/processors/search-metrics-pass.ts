/**
 * Running the keyword metrics processor's pass by hand against the DataForSEO keywords stand-in, as the
 * processors role would (the same dependencies, one pass at a time, a fixed jitter): for the processor tests
 * and the realistic log.
 */
import { PostgresBlobStore } from '../../commands/files/postgres-blob-store.js'
import { ephemeralServiceKey } from '../../commands/secrets/service-key.js'
import { DEFAULT_AEO_PROCESSOR_SETTINGS } from '../../processors/aeo/settings.js'
import { DEFAULT_JOB_SETTINGS } from '../../processors/jobs/settings.js'
import type { ProcessorDeps } from '../../processors/runtime.js'
import { dataForSeoProvider } from '../../processors/search/metrics/dataforseo.js'
import { type PassReport, runKeywordMetricsPass } from '../../processors/search/metrics/pass.js'
import { DEFAULT_SEARCH_PROVIDER_SETTINGS, type SearchProviderSettings } from '../../processors/search/settings.js'
import type { DataForSeoKeywordsStandIn } from '../support/stand-ins/dataforseo-keywords.js'
import type { TestSystem } from '../support/system.js'
import { DEFAULT_MONITORING_SETTINGS } from '../../processors/monitoring/settings.js'
import { systemResolver } from '../../commands/webhooks.js'

/** Search settings pointing DataForSEO at the stand-in, with small backoffs and a quick poll. */
export function metricsSettingsFor(
  standIn: DataForSeoKeywordsStandIn,
  overrides: Partial<SearchProviderSettings> = {},
): SearchProviderSettings {
  return {
    ...DEFAULT_SEARCH_PROVIDER_SETTINGS,
    dataforseo: { login: standIn.login, password: standIn.password, baseUrl: `${standIn.baseUrl}/` },
    timeoutMs: 2000,
    maxAttempts: 3,
    backoffBaseMs: 5,
    requestsPerSecond: 1000,
    pollMs: 50,
    ...overrides,
  }
}

/** The dependencies the processors role gives the metrics processor. */
export function metricsProcessorDeps(ts: TestSystem, search: SearchProviderSettings): ProcessorDeps {
  const s = ts.system
  return {
    store: s.store,
    write: s.write,
    read: s.read,
    db: s.database.db,
    watermark: s.watermark,
    log: s.log,
    aeo: { claimLeaseSeconds: 60, maxAttempts: 3, retryBackoffSeconds: [60], recordRetentionDays: 90, agentOnlineSeconds: 300 },
    aeoProcessors: DEFAULT_AEO_PROCESSOR_SETTINGS,
    jobs: DEFAULT_JOB_SETTINGS,
    languageModel: null,
    blobs: new PostgresBlobStore(s.database.db),
    search,
    monitoring: { ...DEFAULT_MONITORING_SETTINGS, resolve: systemResolver },
    serviceKey: ephemeralServiceKey(),
  }
}

/** A function running one pass (tasks of `batchSize` phrases; default the provider's 1000). */
export function metricsPass(ts: TestSystem, search: SearchProviderSettings, batchSize?: number): () => Promise<PassReport> {
  const deps = metricsProcessorDeps(ts, search)
  const provider = dataForSeoProvider({ ...search.dataforseo!, timeoutMs: search.timeoutMs, requestsPerSecond: search.requestsPerSecond })
  return () =>
    runKeywordMetricsPass(deps, provider, new AbortController().signal, { random: () => 0.5, ...(batchSize ? { batchSize } : {}) })
}
