/**
 * The documented workflows (OpenAPI x-workflows, llms.txt, developers.md). Steps name operations by
 * operationId: an RPC's name, or one of the REST operations of openapi.ts; a test checks every step
 * resolves, so a renamed RPC cannot leave a workflow pointing nowhere.
 */
export interface WorkflowStep {
  readonly stepId: string
  readonly operationId: string
  readonly description: string
}

export interface Workflow {
  readonly workflowId: string
  readonly summary: string
  readonly description: string
  readonly steps: readonly WorkflowStep[]
}

export const WORKFLOWS: readonly Workflow[] = [
  {
    workflowId: 'ai_visibility',
    summary: 'AI Visibility: do answer engines name and cite a client?',
    description:
      'Build buyer questions, enrol a cadence, let agents capture engine answers, then read the tracker, summary and report. Every step is an RPC with an organization key.',
    steps: [
      {
        stepId: 'questions',
        operationId: 'generate_aeo_questions',
        description: "Build buyer-style questions from the client's services x locations (idempotent: adds only what is missing).",
      },
      {
        stepId: 'cadence',
        operationId: 'set_aeo_cadence',
        description: 'Enrol the client: samples per month and engines (openai, claude, gemini, chatgpt-web).',
      },
      {
        stepId: 'enqueue',
        operationId: 'enqueue_due_aeo_runs',
        description: 'Queue the runs due now (the scheduler also does this daily).',
      },
      {
        stepId: 'claim',
        operationId: 'claim_aeo_runs',
        description: 'An operator agent claims queued runs (the built-in server agent answers API engines itself).',
      },
      {
        stepId: 'ingest',
        operationId: 'ingest_aeo_capture',
        description: 'Send the engine answer and its citations; it is analyzed on ingest and returns the capture id.',
      },
      { stepId: 'complete', operationId: 'complete_aeo_run', description: 'Complete the run with the capture id (or fail_aeo_run).' },
      {
        stepId: 'items',
        operationId: 'get_aeo_items',
        description:
          'Read the tracker items (tiers A/B website, C directories/reviews, X market) and act on them with update_aeo_item_status.',
      },
      {
        stepId: 'summary',
        operationId: 'get_aeo_summary',
        description: 'Presence and named-first rates per service with Wilson intervals and a month-over-month verdict.',
      },
      { stepId: 'report', operationId: 'aeo_report_html', description: 'Render the white-label monthly report.' },
      { stepId: 'file', operationId: 'file_aeo_report', description: 'File the report under /api/v1/files/ (emits aeo.report.saved).' },
    ],
  },
  {
    workflowId: 'organization_export',
    summary: "Export an organization's data",
    description:
      'Create an export_org job, poll it until done (or take the job.completed webhook), then download the zip from result.download_url.',
    steps: [
      {
        stepId: 'create',
        operationId: 'create_job',
        description: 'POST /api/v1/jobs with {"kind": "export_org"} (a service account adds org_id); answers 202 {job_id, status_url}.',
      },
      { stepId: 'poll', operationId: 'get_job', description: 'GET the status_url until status is done (or failed).' },
      {
        stepId: 'download',
        operationId: 'download_export',
        description: 'GET result.download_url: the zip with every table as JSON and CSV, filed reports and a manifest (kept 7 days).',
      },
    ],
  },
]
