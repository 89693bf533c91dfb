import { signInSettingsProblems, SIGN_IN_VARIABLES } from '../../ops/signInSettings';

const real = {
  AUTH_TENANT_ID: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  AUTH_PORTAL_CLIENT_ID: '4a1aa1d5-c567-49d0-ad0b-cd957a47f842',
  AUTH_APP_CLIENT_ID: '9b2c6e1f-3d4a-4b5c-8d7e-0f1a2b3c4d5e',
};

describe('sign-in settings a deployment refuses', () => {
  it('takes real tenant and client ids', () => {
    expect(signInSettingsProblems(real)).toEqual([]);
  });

  it.each(SIGN_IN_VARIABLES)('refuses the zero-GUID placeholder in %s, naming it', (name) => {
    const problems = signInSettingsProblems({ ...real, [name]: '00000000-0000-0000-0000-000000000000' });
    expect(problems).toEqual([expect.stringContaining(name)]);
    expect(problems[0]).toMatch(/placeholder/);
  });

  it.each(SIGN_IN_VARIABLES)('refuses %s unset or not a GUID', (name) => {
    expect(signInSettingsProblems({ ...real, [name]: '' })).toEqual([expect.stringMatching(new RegExp(`^${name} is not set`))]);
    expect(signInSettingsProblems({ ...real, [name]: 'contoso.onmicrosoft.com' })).toEqual([
      expect.stringMatching(new RegExp(`^${name} must be a GUID`)),
    ]);
  });

  it('names every problem at once', () => {
    expect(signInSettingsProblems({})).toHaveLength(3);
  });
});
