/** The images sub-area's read models as kysely sees them. */
// biome-ignore lint/complexity/noBannedTypes: filled in as the sub-area's tables arrive
export type ImagesReadModels = {}
