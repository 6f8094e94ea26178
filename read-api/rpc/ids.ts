import { Id } from '../../domain/shared/values.js'

/*
 * The ids RPCs take and answer, each described once: every method that names a client, a question or a run
 * documents it the same way, and a new method gets the description by using the value.
 */

export const ClientId = Id.describe('The client (an integer id, as add_client answered)')
export const QueryId = Id.describe('The AI Visibility question (an integer id, as add_aeo_query or get_aeo_queries answered)')
export const RunId = Id.describe('The AI Visibility run (an integer id, as claim_aeo_runs answered)')
export const CaptureId = Id.describe('The AI Visibility capture (an integer id, as ingest_aeo_capture answered)')
export const ItemId = Id.describe('The AI Visibility tracker item (an integer id, as get_aeo_items answered)')
export const UserId = Id.describe('The member (a user id, as invite_org_member or list_org_members answered)')
export const PageId = Id.describe('The page (an integer id, as add_page answered)')
export const EditId = Id.describe('The site edit (an integer id, as create_site_edit or get_site_edits answered)')
export const WebhookId = Id.describe('The webhook (an integer id, as register_webhook answered)')
export const DeliveryId = Id.describe('The webhook delivery (an integer id, as list_webhook_deliveries answered)')
export const KeywordId = Id.describe('The keyword (an integer id, as add_keyword answered)')
export const KeyId = Id.describe('The API key (an integer id, as create_api_key or list_api_keys answered)')
export const ProviderId = Id.describe('The identity provider (an integer id, as its add_org_*_provider answered)')
export const GrantId = Id.describe('The OAuth grant (an integer id, as oauth_list_grants answered)')
