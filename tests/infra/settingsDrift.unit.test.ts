import { readFileSync } from 'node:fs';
import path from 'node:path';
import { settingNames } from '../../shared/config/settings';
import { noDrift, settingsDrift } from './settingsDrift';
import {
  bicepModules,
  bindingSettings,
  environments,
  environmentSettings,
  infraSettings,
  localOnlySettings,
  mainBicep,
  resourceSettingKeys,
  root,
  sampleSettingNames,
} from './settingsSources';

const infra = infraSettings();
const infraApp = Object.keys(infra.app);
const localOnly = localOnlySettings();

describe('the three lists of app settings agree', () => {
  it('code schema, local.settings.sample.json and infra/app-settings.json name the same settings', () => {
    const drift = settingsDrift({
      code: [...settingNames],
      sample: sampleSettingNames(),
      infra: infraApp,
      localOnly: Object.keys(localOnly),
      bindingOnly: bindingSettings().connections,
    });
    expect(drift).toEqual(noDrift);
  });

  it('gives every local-only setting a reason', () => {
    for (const [name, reason] of Object.entries(localOnly)) expect([name, reason.length > 20]).toEqual([name, true]);
  });

  it('keeps platform settings apart from the app settings', () => {
    const appNames = new Set([...settingNames, ...sampleSettingNames(), ...infraApp]);
    expect(Object.keys(infra.platform).filter((name) => appNames.has(name))).toEqual([]);
  });
});

describe('the box settings documented beside them', () => {
  it('lists every setting of edge/.env.sample in infra/README.md', () => {
    const boxSettings = [...readFileSync(path.join(root, 'edge', '.env.sample'), 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(
      (match) => match[1] ?? '',
    );
    const readme = readFileSync(path.join(root, 'infra', 'README.md'), 'utf8');
    expect(boxSettings.length).toBeGreaterThan(3);
    expect(boxSettings.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});

describe('the drift check itself', () => {
  const agreed = { code: ['A', 'PORT'], sample: ['A', 'PORT', 'RUNTIME'], infra: ['A'], localOnly: ['PORT', 'RUNTIME'], bindingOnly: [] };

  it('passes when the lists agree', () => {
    expect(settingsDrift(agreed)).toEqual(noDrift);
  });

  it('names what is missing, in each direction', () => {
    expect(settingsDrift({ ...agreed, code: ['A', 'B', 'PORT'] }).codeMissingFromInfra).toEqual(['B']);
    expect(settingsDrift({ ...agreed, sample: ['A', 'C', 'PORT', 'RUNTIME'] }).sampleMissingFromInfra).toEqual(['C']);
    expect(settingsDrift({ ...agreed, infra: ['A', 'D'] })).toMatchObject({ infraMissingFromSample: ['D'], infraReadByNobody: ['D'] });
    expect(settingsDrift({ ...agreed, infra: ['A', 'PORT'] }).localOnlyButInInfra).toEqual(['PORT']);
    expect(settingsDrift({ ...agreed, localOnly: ['PORT', 'RUNTIME', 'GONE'] }).localOnlyUnknown).toEqual(['GONE']);
  });

  it('accepts a setting that only a trigger binding reads', () => {
    const withConnection = { ...agreed, sample: [...agreed.sample, 'HUB'], infra: ['A', 'HUB'], bindingOnly: ['HUB'] };
    expect(settingsDrift(withConnection)).toEqual(noDrift);
  });
});

describe('every value infra writes can be resolved', () => {
  const entries = Object.entries({ ...infra.app, ...infra.platform });
  const referenced = (prefix: string) =>
    entries.filter(([, source]) => source.startsWith(prefix)).map(([name, source]) => [name, source.slice(prefix.length)] as const);

  it('sets every %SETTING% a trigger uses to a non-empty value in every environment', () => {
    const { expressions } = bindingSettings();
    expect(expressions.length).toBeGreaterThan(0);
    for (const environment of environments) {
      const values = environmentSettings(environment);
      const unresolved = expressions.filter((name) => {
        const source = infra.app[name];
        if (source === undefined) return true;
        // Key Vault references and values this deployment produces exist by construction.
        if (source.startsWith('secret:') || source.startsWith('resource:')) return false;
        const value = source.startsWith('env:') ? values[source.slice('env:'.length)] : source;
        return !value?.trim();
      });
      expect({ environment, unresolved }).toEqual({ environment, unresolved: [] });
    }
  });

  it('has every env: value in each environment file, and nothing else there', () => {
    // One environment value may feed several settings (INGEST_FUNCTION_DISABLED: the ingest function and its heartbeat).
    const wanted = [...new Set(referenced('env:').map(([, key]) => key))].sort();
    for (const environment of environments) {
      const values = environmentSettings(environment);
      expect({ environment, keys: Object.keys(values).sort() }).toEqual({ environment, keys: wanted });
      expect({ environment, empty: Object.entries(values).filter(([, value]) => !value.trim()) }).toEqual({ environment, empty: [] });
      expect(mainBicep()).toContain(`loadJsonContent('env/${environment}.settings.json')`);
    }
  });

  it('writes every secret: name into Key Vault from a module or its deployment script', () => {
    const modules = bicepModules().join('\n');
    const scripts = readFileSync(path.join(root, 'infra', 'modules', 'webPushKeys.sh'), 'utf8');
    const unwritten = referenced('secret:').filter(
      ([, secret]) => !modules.includes(`'${secret}'`) && !scripts.includes(`secret set --vault-name "$VAULT_NAME" --name ${secret} `),
    );
    expect(unwritten).toEqual([]);
  });

  it("produces every resource: key in main.bicep (or, for the site's own host name, in functionApp.bicep)", () => {
    const siteValues =
      /var siteValues = \{([\s\S]*?)\n\}/.exec(readFileSync(path.join(root, 'infra', 'modules', 'functionApp.bicep'), 'utf8'))?.[1] ?? '';
    const keys = [...resourceSettingKeys(mainBicep()), ...[...siteValues.matchAll(/^\s*(\w+):/gm)].map((match) => match[1] ?? '')];
    expect(keys.length).toBeGreaterThan(0);
    expect(referenced('resource:').filter(([, key]) => !keys.includes(key))).toEqual([]);
  });

  it('keeps SVC_INGEST_STATUS_ENABLED off unless the deploy passes the live value', () => {
    expect(infra.app.SVC_INGEST_STATUS_ENABLED ?? 'resource:ingestStatusEnabled').toBe('resource:ingestStatusEnabled');
    expect(mainBicep()).toMatch(/^param ingestStatusEnabled bool = false$/m);
  });
});
