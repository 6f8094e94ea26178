import { CURRENT_QUESTIONNAIRE } from '../../domain/search/surveys/questions.js'
import { findSurvey, openSurvey, surveySet, type SurveySetCommand, type SurveySetState } from '../../domain/search/surveys/survey-set.js'
import { writableClient } from '../aeo/capture-facts.js'
import { handleCommand, loadState, type CommandContext, type WriteDeps } from '../command-handler.js'
import type { Position } from '../event-store/port.js'

type Caller = { readonly callerOrgId: number | null }

/** The client's surveys, folded from `surveys-<client_id>`. */
export async function loadSurveySet(deps: Pick<WriteDeps, 'store'>, clientId: number): Promise<SurveySetState> {
  return loadState(deps.store, surveySet, clientId)
}

/** Every survey event carries the client's organization, so `ops replay --org` and the export see the surveys. */
async function run(deps: WriteDeps, context: CommandContext, input: Caller & { clientId: number }, command: SurveySetCommand) {
  const owner = await writableClient(deps.store, input.clientId, input.callerOrgId)
  return handleCommand(deps, { aggregate: surveySet, id: owner.id, command, context, orgId: owner.orgId })
}

/**
 * create_client_survey: starts a survey of the current questionnaire, or answers the one in progress (at most
 * one is open per client). `created`: this call started it. `position`: what to wait for to read the survey.
 */
export async function startClientSurvey(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number },
): Promise<{ surveyId: number; created: boolean; position: Position | null }> {
  // Checked first, so an open survey is answered only to a caller that may write for the client.
  await writableClient(deps.store, input.clientId, input.callerOrgId)
  const open = openSurvey(await loadSurveySet(deps, input.clientId))
  // The open survey's events are in the log already; the head is a position the caller can wait for to see them.
  if (open) return { surveyId: open.id, created: false, position: await deps.store.headPosition() }
  const surveyId = await deps.ids.next('survey')
  const outcome = await run(deps, context, input, {
    type: 'StartSurvey',
    client_id: input.clientId,
    survey_id: surveyId,
    questionnaire: CURRENT_QUESTIONNAIRE,
  })
  // A concurrent start may have won between the look and the append: its survey is the open one.
  const started = openSurvey(outcome.state)!
  return { surveyId: started.id, created: started.id === surveyId, position: outcome.position }
}

/** record_survey_answers: records the answers that changed; completes the survey once every required one is in. */
export async function recordSurveyAnswers(
  deps: WriteDeps,
  context: CommandContext,
  input: Caller & { clientId: number; surveyId: number; answers: Readonly<Record<string, unknown>> },
): Promise<{ recorded: string[]; completed: boolean; position: Position | null }> {
  const outcome = await run(deps, context, input, {
    type: 'RecordAnswers',
    client_id: input.clientId,
    survey_id: input.surveyId,
    answers: input.answers,
  })
  const recorded = outcome.events.flatMap((e) => (e.type === 'SurveyAnswersRecorded' ? Object.keys(e.data.answers) : []))
  return { recorded, completed: findSurvey(outcome.state, input.surveyId)?.completed ?? false, position: outcome.position }
}
