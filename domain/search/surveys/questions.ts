/**
 * The onboarding questionnaire: what an agency asks a new client about its business before it picks keywords,
 * pages and copy. The questions are defined here, in code, and each survey names the questionnaire it was
 * started with, so a later version of the questions never changes what an old survey asked.
 */

/**
 * How a question is answered. text: one free text; list: several short texts (services, competitors…);
 * choice: one of `options`; multi_choice: one or more of `options`; number: a whole number from 0.
 */
export type QuestionKind = 'text' | 'list' | 'choice' | 'multi_choice' | 'number'

export interface SurveyQuestion {
  /** Stable id: answers are recorded by it. */
  readonly id: string
  readonly prompt: string
  readonly kind: QuestionKind
  /** A survey is completed once every required question has an answer. */
  readonly required: boolean
  /** The allowed values of a choice or multi_choice question. */
  readonly options?: readonly string[]
}

/** Bounds of an answer, the same for every question of a kind. */
export const TEXT_MAX_LENGTH = 2000
export const LIST_MAX_ITEMS = 50
export const LIST_ITEM_MAX_LENGTH = 200
export const NUMBER_MAX = 1_000_000

export const ONBOARDING_V1 = 'onboarding-v1'

const ONBOARDING_V1_QUESTIONS: readonly SurveyQuestion[] = [
  { id: 'business_summary', prompt: 'In a sentence or two, what does the business do?', kind: 'text', required: true },
  { id: 'services', prompt: 'Which services or products should bring in customers from search?', kind: 'list', required: true },
  {
    id: 'service_area',
    prompt: 'Where are the customers: the cities, regions or countries the business serves?',
    kind: 'list',
    required: true,
  },
  {
    id: 'ideal_customer',
    prompt: 'Who is the ideal customer, and what problem brings them to search?',
    kind: 'text',
    required: true,
  },
  { id: 'differentiators', prompt: 'What sets the business apart from its competitors?', kind: 'list', required: true },
  { id: 'competitors', prompt: 'Which competitors do customers compare it with (names or websites)?', kind: 'list', required: false },
  {
    id: 'brand_voice',
    prompt: 'How should the website and ads sound?',
    kind: 'choice',
    required: true,
    options: ['friendly', 'professional', 'authoritative', 'playful', 'premium'],
  },
  {
    id: 'goals',
    prompt: 'What should search bring the business in the next six months?',
    kind: 'multi_choice',
    required: true,
    options: ['more_calls', 'more_leads', 'online_sales', 'local_visibility', 'ai_visibility', 'brand_awareness'],
  },
  {
    id: 'price_position',
    prompt: 'Where do its prices sit in the market?',
    kind: 'choice',
    required: false,
    options: ['budget', 'mid_market', 'premium'],
  },
  { id: 'years_in_business', prompt: 'How many years has the business been operating?', kind: 'number', required: false },
  {
    id: 'seasonality',
    prompt: 'Are there busy or quiet seasons, or offers that change through the year?',
    kind: 'text',
    required: false,
  },
  { id: 'avoid_topics', prompt: 'Words, claims or topics the business never wants used', kind: 'list', required: false },
]

/** Every questionnaire by name; a new version is added beside the old ones, never in their place. */
export const QUESTIONNAIRES: Readonly<Record<string, readonly SurveyQuestion[]>> = { [ONBOARDING_V1]: ONBOARDING_V1_QUESTIONS }

/** The questionnaire new surveys start with. */
export const CURRENT_QUESTIONNAIRE = ONBOARDING_V1

/** The questions of a questionnaire ([] for a name this version does not know). */
export function questionsOf(questionnaire: string): readonly SurveyQuestion[] {
  return QUESTIONNAIRES[questionnaire] ?? []
}
