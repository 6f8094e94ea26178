import { z } from 'zod'

/**
 * The roles a member of an organization holds (spec "Roles named by the interface: owner, viewer, SEO editor,
 * web builder"), in the snake_case the API uses. Owners manage members; the OAuth part caps a member's
 * consent by role (viewers cannot authorize).
 */
export const ROLES = ['owner', 'seo_editor', 'web_builder', 'viewer'] as const
export type Role = (typeof ROLES)[number]
export const RoleSchema = z.enum(ROLES)

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Owner',
  seo_editor: 'SEO editor',
  web_builder: 'Web builder',
  viewer: 'Viewer',
}

/**
 * Who asks for a member change. An API key with the write scope acts at owner level (keys carry scopes, not
 * roles, today); a signed-in member acts with their own role, and only an owner may manage members.
 */
export type MemberManager = { readonly kind: 'key' } | { readonly kind: 'member'; readonly role: Role; readonly user_id: number }

export const canManageMembers = (manager: MemberManager) => manager.kind === 'key' || manager.role === 'owner'
