/**
 * Read-model tables whose projector has not landed yet, so the idempotence test does not demand rows of
 * them. Each AI Visibility part removes its tables here when its projector and its realistic log land;
 * this file goes when the set is empty.
 */
export const NOT_YET_PROJECTED: ReadonlySet<string> = new Set([
])
