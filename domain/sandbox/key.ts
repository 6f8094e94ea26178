/**
 * The published sandbox key. It is public on purpose (README, docs): it only reads, and only the sandbox
 * organization's fictional data. Like every key, only its sha256 is stored.
 */
export const SANDBOX_KEY = 'rrk_sandbox_public_read_only_demo_key'

export const SANDBOX_KEY_NAME = 'Public sandbox key (read-only)'
