/** Platform roles carried in the token's `roles` claim. Club roles (member, leader) live in the database. */
export const PLATFORM_ROLES = ['platform_admin', 'ops_admin', 'billing_admin', 'support_admin'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

export const CAPABILITIES = ['costs.read', 'diagnostics.read', 'clubs.manage'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Which role grants which capability. Decided server-side so a token never carries capabilities.
 * support_admin deliberately lacks costs.read.
 */
const GRANTS: Record<PlatformRole, readonly Capability[]> = {
  platform_admin: ['costs.read', 'diagnostics.read', 'clubs.manage'],
  ops_admin: ['costs.read', 'diagnostics.read'],
  billing_admin: ['costs.read'],
  support_admin: ['diagnostics.read'],
};

export function isPlatformRole(value: unknown): value is PlatformRole {
  return typeof value === 'string' && (PLATFORM_ROLES as readonly string[]).includes(value);
}

export function capabilitiesOf(roles: readonly PlatformRole[]): Set<Capability> {
  return new Set(roles.flatMap((role) => GRANTS[role]));
}
