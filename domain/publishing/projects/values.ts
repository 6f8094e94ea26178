import { z } from 'zod'

/** What a website project is: a site built from nothing, or an existing site rebuilt. */
export const PROJECT_KINDS = ['new_site', 'rebuild'] as const
export type ProjectKind = (typeof PROJECT_KINDS)[number]
export const ProjectKind = z.enum(PROJECT_KINDS)

/** A project's stage, in the order a site is built; archived: finished with or abandoned, kept read-only. */
export const PROJECT_STATUSES = ['planning', 'building', 'review', 'live', 'archived'] as const
export type ProjectStatus = (typeof PROJECT_STATUSES)[number]
export const ProjectStatus = z.enum(PROJECT_STATUSES)

export const PROJECT_NAME_MAX_LENGTH = 200
export const PROJECT_NOTES_MAX_LENGTH = 10_000
export const PROJECT_URL_MAX_LENGTH = 2000
