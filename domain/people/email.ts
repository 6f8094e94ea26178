import { z } from 'zod'

/** A member's email as given (trimmed, bounded, one @ with something on both sides). */
export const EmailSchema = z
  .string()
  .trim()
  .min(3)
  .max(254)
  .regex(/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/, 'expected an email address')

/**
 * The form of an email that decides uniqueness and sign-in lookup: trimmed and lower-cased (the local part is
 * treated case-insensitively, as every mainstream provider does). Stored and shown in this form too.
 */
export const normalizeEmail = (email: string) => email.trim().toLowerCase()
