import type { ProjectStatus } from './values.js'

/**
 * Which stage a project may move to from each: one step forward, one step back (review sends a site back
 * to building; a live site goes back to review for a new round), archived from any stage, and an archived
 * project only back to planning (taken up again, from the start). A jump (planning → live) is refused: the
 * stages are what a person reading the project relies on.
 */
const NEXT: Readonly<Record<ProjectStatus, readonly ProjectStatus[]>> = {
  planning: ['building', 'archived'],
  building: ['planning', 'review', 'archived'],
  review: ['building', 'live', 'archived'],
  live: ['review', 'archived'],
  archived: ['planning'],
}

export function canMoveProject(from: ProjectStatus, to: ProjectStatus): boolean {
  return NEXT[from].includes(to)
}

export function projectMovesFrom(from: ProjectStatus): readonly ProjectStatus[] {
  return NEXT[from]
}
