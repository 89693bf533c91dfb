import { CAPABILITIES, capabilitiesOf, PLATFORM_ROLES, type Capability, type PlatformRole } from '../../shared/auth/roles';

describe('capabilities derived from platform roles', () => {
  it.each<[PlatformRole, Capability[]]>([
    ['platform_admin', ['costs.read', 'diagnostics.read', 'clubs.manage', 'platform.admin', 'ingest.details']],
    ['ops_admin', ['costs.read', 'ingest.details']],
    ['billing_admin', ['costs.read']],
    ['support_admin', []],
  ])('%s grants %j', (role, capabilities) => {
    expect([...capabilitiesOf([role])].sort()).toEqual([...capabilities].sort());
  });

  it('reserves the diagnostics summary for platform admins', () => {
    const holders = PLATFORM_ROLES.filter((role) => capabilitiesOf([role]).has('diagnostics.read'));
    expect(holders).toEqual(['platform_admin']);
  });

  it('shows ingest health details to platform_admin and ops_admin only', () => {
    const holders = PLATFORM_ROLES.filter((role) => capabilitiesOf([role]).has('ingest.details'));
    expect(holders).toEqual(['platform_admin', 'ops_admin']);
  });

  it('grants the union for several roles and nothing for none', () => {
    expect([...capabilitiesOf(['billing_admin', 'ops_admin'])].sort()).toEqual(['costs.read', 'ingest.details']);
    expect(capabilitiesOf([]).size).toBe(0);
  });

  it('knows every capability some role grants', () => {
    const granted = new Set(PLATFORM_ROLES.flatMap((role) => [...capabilitiesOf([role])]));
    expect([...granted].sort()).toEqual([...CAPABILITIES].sort());
  });
});
