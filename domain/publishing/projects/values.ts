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

/** What a planned page is for; `other` for anything else. */
export const SITEMAP_PAGE_TYPES = ['home', 'service', 'location', 'about', 'contact', 'blog_index', 'landing', 'other'] as const
export type SitemapPageType = (typeof SITEMAP_PAGE_TYPES)[number]
export const SitemapPageType = z.enum(SITEMAP_PAGE_TYPES)

/** A planned page's stage, in the order it is written and put on the site. */
export const SITEMAP_PAGE_STATUSES = ['planned', 'drafting', 'drafted', 'approved', 'published'] as const
export type SitemapPageStatus = (typeof SITEMAP_PAGE_STATUSES)[number]
export const SitemapPageStatus = z.enum(SITEMAP_PAGE_STATUSES)

export const SITEMAP_TITLE_MAX_LENGTH = 300
export const SITEMAP_KEYWORD_MAX_LENGTH = 200
/** A project's sitemap is folded whole for every page write: a bound keeps that cheap (a large local site has a few hundred pages). */
export const MAX_SITEMAP_PAGES = 2000
/** How deep the tree may nest (home → services → a service → a location is 4): deeper is a mistake, not a sitemap. */
export const MAX_SITEMAP_DEPTH = 8

/** What a piece of generated content is: a page's copy, its meta (title and description), or one section of it. */
export const CONTENT_KINDS = ['page_copy', 'meta', 'section'] as const
export type ContentKind = (typeof CONTENT_KINDS)[number]
export const ContentKind = z.enum(CONTENT_KINDS)

/** A page's copy as text or HTML; a long service page is a few tens of kilobytes. */
export const CONTENT_BODY_MAX_LENGTH = 262_144
export const CONTENT_WRITER_MAX_LENGTH = 100
/** How many ids one mark_content_exported call takes. */
export const MAX_CONTENT_IDS = 500
