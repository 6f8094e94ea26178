import { z } from 'zod'

/**
 * Why a client is in cooldown: a closed set, because each reason is a rule about which activity waits.
 * `publish`: a site edit was just applied (set by apply_site_edit); `scan_failures`: three scans in a row
 * failed (set by the scan processor); `operator`: a person said so (set_client_cooldown).
 */
export const CooldownReason = z.enum(['publish', 'scan_failures', 'operator'])
export type CooldownReason = z.infer<typeof CooldownReason>

/** What a cooldown can hold back: a scan of the client's site, or publishing an edit to it. */
export const CooldownActivity = z.enum(['scan', 'publish'])
export type CooldownActivity = z.infer<typeof CooldownActivity>

/**
 * The one table of which activity each reason holds back. `publish` holds back scans only: the site just
 * changed (caches, CDNs and the CMS's own rebuild settle within minutes), so a scan now would record a
 * half-published page; publishing is not held back, because an agent applying a series of edits (and undoing
 * one) must not be made to wait between them. `scan_failures`: the site is failing us, so scans wait; a
 * publish is a person's decision and goes on. `operator`: a person stopped everything.
 */
export const COOLDOWN_HOLDS: Readonly<Record<CooldownReason, readonly CooldownActivity[]>> = {
  publish: ['scan'],
  scan_failures: ['scan'],
  operator: ['scan', 'publish'],
}

/** Whether a cooldown for `reason` holds `activity` back (while it is active). */
export function holdsBack(reason: CooldownReason, activity: CooldownActivity): boolean {
  return COOLDOWN_HOLDS[reason].includes(activity)
}

/** The reasons that hold `activity` back, in the table's order. */
export function reasonsHolding(activity: CooldownActivity): CooldownReason[] {
  return CooldownReason.options.filter((r) => holdsBack(r, activity))
}

/**
 * How long a cooldown lasts when its setter names no time. publish: 15 minutes, longer than a CMS rebuild or
 * a CDN purge usually takes, short enough that the change is seen the same hour. scan_failures: 6 hours, so a
 * site that is down is retried a few times a day rather than hammered. operator: 24 hours (a person who
 * wants another length names it).
 */
export const DEFAULT_COOLDOWN_MINUTES: Readonly<Record<CooldownReason, number>> = {
  publish: 15,
  scan_failures: 6 * 60,
  operator: 24 * 60,
}

/** The farthest ahead a cooldown may end: longer holds are a client switched off, which is set_client_status. */
export const MAX_COOLDOWN_DAYS = 30
export const MAX_COOLDOWN_MINUTES = MAX_COOLDOWN_DAYS * 24 * 60

/** Consecutive failed scans of a client that set a scan_failures cooldown (the scan processor counts them). */
export const SCAN_FAILURES_BEFORE_COOLDOWN = 3

/** A cooldown's note: why, in the setter's words. */
export const COOLDOWN_NOTE_MAX_LENGTH = 500
