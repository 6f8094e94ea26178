/** The section templates, the template catalog and template pages sub-area's read models as kysely sees them. */
// biome-ignore lint/complexity/noBannedTypes: filled in as the sub-area's tables arrive
export type TemplatesReadModels = {}
