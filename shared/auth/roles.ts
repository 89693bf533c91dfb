/** Platform roles carried in the token's `roles` claim. Club roles (member, leader) live in the database. */
export const PLATFORM_ROLES = ['platform_admin', 'ops_admin', 'billing_admin', 'support_admin'] as const;
export type PlatformRole = (typeof PLATFORM_ROLES)[number];

/**
 * What a caller may do, derived from roles. Every guard checks a capability, never a role:
 * `platform.admin` is what only platform admins may do (the platformAdmin guard), `clubs.manage`
 * acting on any club (the club catalog, adopt, and clubRole's `orCapability`).
 */
export const CAPABILITIES = ['costs.read', 'diagnostics.read', 'clubs.manage', 'platform.admin', 'ingest.details'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/**
 * Which role grants which capability. Decided server-side so a token never carries capabilities.
 * support_admin deliberately lacks costs.read; the diagnostics summary is for platform admins only
 * (spec), so diagnostics.read is platform_admin's alone. ingest.details (error texts, reject
 * details, club ids and quarantine context in ingest health) is for platform_admin and ops_admin.
 */
const GRANTS: Record<PlatformRole, readonly Capability[]> = {
  platform_admin: ['costs.read', 'diagnostics.read', 'clubs.manage', 'platform.admin', 'ingest.details'],
  ops_admin: ['costs.read', 'ingest.details'],
  billing_admin: ['costs.read'],
  support_admin: [],
};

export function isPlatformRole(value: unknown): value is PlatformRole {
  return typeof value === 'string' && (PLATFORM_ROLES as readonly string[]).includes(value);
}

export function capabilitiesOf(roles: readonly PlatformRole[]): Set<Capability> {
  return new Set(roles.flatMap((role) => GRANTS[role]));
}
