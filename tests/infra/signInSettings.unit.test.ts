import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SIGN_IN_VARIABLES } from '../../ops/signInSettings';
import { stepEnvironment } from './processSettings';
import { bicepParamFile, environments, environmentSettings, infraSettings, mainBicep, root } from './settingsSources';

/**
 * The sign-in settings of each environment come from its deployment variables (as the cost
 * settings do), never from a committed placeholder, and no path deploys the zero GUID: the
 * workflow and azd run `deploy:check-sign-in` first, main.bicep fails on it itself.
 */
const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const SIGN_IN_SETTINGS = ['AUTH_ISSUER', 'AUTH_JWKS_URL', 'AUTH_OIDC_AUTHORITY', 'AUTH_PORTAL_CLIENT_ID', 'AUTH_APP_CLIENT_ID'];
const PARAMS = { AUTH_TENANT_ID: 'signInTenantId', AUTH_PORTAL_CLIENT_ID: 'signInPortalClientId', AUTH_APP_CLIENT_ID: 'signInAppClientId' };

describe.each(environments)('sign-in settings of %s', (environment) => {
  it('holds no tenant or client id in the committed settings', () => {
    const committed = JSON.stringify(environmentSettings(environment));
    expect(committed).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
    for (const name of SIGN_IN_SETTINGS) expect(environmentSettings(environment)).not.toHaveProperty(name);
  });

  it("reads the three ids from the environment's variables", () => {
    for (const [variable, param] of Object.entries(PARAMS)) {
      expect(bicepParamFile(environment)).toContain(`param ${param} = readEnvironmentVariable('${variable}', '')`);
    }
  });
});

describe('the deployment of the sign-in settings', () => {
  it('hands the five settings to the app as deployment values built from the ids', () => {
    const { app } = infraSettings();
    for (const name of SIGN_IN_SETTINGS) expect([name, app[name]]).toEqual([name, `deploy:${name}`]);
    const block = /var deploymentSettingValues = \{([\s\S]*?)\n\}/.exec(mainBicep())?.[1] ?? '';
    expect(block).toMatch(/AUTH_ISSUER: signInAuthority/);
    expect(block).toMatch(/AUTH_JWKS_URL: '.*\$\{signInTenant\}\/discovery\/v2\.0\/keys'/);
    expect(block).toMatch(/AUTH_PORTAL_CLIENT_ID: signInPortalClient$/m);
    expect(block).toMatch(/AUTH_APP_CLIENT_ID: signInAppClient$/m);
  });

  it('fails the Bicep deployment on an empty id or the zero-GUID placeholder', () => {
    const bicep = mainBicep();
    expect(bicep).toContain("var placeholderGuid = '00000000-0000-0000-0000-000000000000'");
    for (const [variable, param] of Object.entries(PARAMS)) {
      expect(bicep).toMatch(new RegExp(`empty\\(${param}\\) \\|\\| ${param} == placeholderGuid\\s+\\? fail\\('${variable} `));
    }
  });

  it('refuses a placeholder in the workflow before the what-if, and in azd before provisioning', () => {
    const workflow = read('.github', 'workflows', 'infra.yml');
    const check = 'Refuse placeholder sign-in settings (AUTH_TENANT_ID, AUTH_PORTAL_CLIENT_ID, AUTH_APP_CLIENT_ID)';
    expect(workflow.indexOf(check)).toBeGreaterThan(workflow.indexOf('- run: npm run build'));
    expect(workflow.indexOf(check)).toBeLessThan(workflow.indexOf('- name: What-if'));
    expect(workflow).toMatch(/Refuse placeholder sign-in settings[^\n]*\n(?:\s+.*\n)*?\s+run: node dist\/ops\.js deploy:check-sign-in/);
    for (const step of [check, 'What-if', 'Deploy']) {
      const env = stepEnvironment('infra.yml', step);
      for (const variable of SIGN_IN_VARIABLES) expect([step, env[variable]]).toEqual([step, `\${{ vars.${variable} }}`]);
    }
    const parameters = read('infra', 'main.parameters.json');
    for (const [variable, param] of Object.entries(PARAMS))
      expect(parameters).toMatch(new RegExp(`"${param}": \\{\\s+"value": "\\$\\{${variable}=\\}"`));
    const preprovision = read('infra', 'azd', 'preprovision.sh');
    expect(preprovision.indexOf('node dist/ops.js deploy:check-sign-in')).toBeGreaterThan(preprovision.indexOf('npm run build'));
  });
});
