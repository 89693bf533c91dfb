import { authenticateDemoUser, DEMO_PASSWORD, DEMO_USERS, demoUserBySub } from '../../development/oidcProvider/demoUsers';

describe('the local provider’s demo users', () => {
  it('are the five documented users with fixed subs and their platform roles', () => {
    expect(DEMO_USERS.map((user) => [user.username, user.sub, user.roles])).toEqual([
      ['demo-admin', 'demo-admin', ['platform_admin']],
      ['demo-ops', 'demo-ops', ['ops_admin']],
      ['demo-leader', 'demo-leader', []],
      ['demo-member-1', 'demo-member-1', []],
      ['demo-member-2', 'demo-member-2', []],
    ]);
    expect(DEMO_PASSWORD).toBe('demo');
  });

  it('signs in with the demo password only, and only known users', () => {
    expect(authenticateDemoUser('demo-ops', 'demo')?.sub).toBe('demo-ops');
    expect(authenticateDemoUser(' demo-ops ', 'demo')?.sub).toBe('demo-ops');
    expect(authenticateDemoUser('demo-ops', 'Demo')).toBeUndefined();
    expect(authenticateDemoUser('demo-ops', '')).toBeUndefined();
    expect(authenticateDemoUser('root', 'demo')).toBeUndefined();
    expect(demoUserBySub('demo-member-2')?.name).toBe('Demo Member 2');
    expect(demoUserBySub('nobody')).toBeUndefined();
  });
});
