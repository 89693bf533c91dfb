import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSettings, SettingsError } from '../../shared/config/settings';
import { costProviderConfig } from '../../shared/costs/config';

const sample = (
  JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'local.settings.sample.json'), 'utf8')) as { Values: Record<string, string> }
).Values;
const credentials = {
  INTERNAL_CLOUD_COST_TENANT_ID: 'tenant',
  INTERNAL_CLOUD_COST_CLIENT_ID: 'client',
  INTERNAL_CLOUD_COST_CLIENT_SECRET: 'secret',
  INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: 'subscription',
};

describe('cost settings', () => {
  it('the committed sample leaves cost monitoring unconfigured, with the Azure URLs', () => {
    const settings = parseSettings(sample);
    expect(costProviderConfig(settings)).toBeUndefined();
    expect(settings.INTERNAL_CLOUD_COST_AUTH_URL).toBe('https://login.microsoftonline.com');
    expect(settings.INTERNAL_CLOUD_COST_API_URL).toBe('https://management.azure.com');
  });

  it.each(Object.keys(credentials))('is unconfigured while %s is missing', (missing) => {
    expect(costProviderConfig(parseSettings({ ...sample, ...credentials, [missing]: '' }))).toBeUndefined();
  });

  it('is configured with all four; empty URLs mean the defaults, a trailing slash is dropped', () => {
    expect(
      costProviderConfig(
        parseSettings({
          ...sample,
          ...credentials,
          INTERNAL_CLOUD_COST_AUTH_URL: '',
          INTERNAL_CLOUD_COST_API_URL: 'https://127.0.0.1:8443/',
        }),
      ),
    ).toEqual({
      tenantId: 'tenant',
      clientId: 'client',
      clientSecret: 'secret',
      subscriptionId: 'subscription',
      authUrl: 'https://login.microsoftonline.com',
      apiUrl: 'https://127.0.0.1:8443',
    });
  });

  it('refuses a plain-http URL (the SDKs would refuse it later, less clearly)', () => {
    expect(() => parseSettings({ ...sample, INTERNAL_CLOUD_COST_API_URL: 'http://127.0.0.1:8080' })).toThrow(SettingsError);
    expect(() => parseSettings({ ...sample, INTERNAL_CLOUD_COST_AUTH_URL: 'not a url' })).toThrow(
      /INTERNAL_CLOUD_COST_AUTH_URL must be a URL/,
    );
  });

  it('reads the monthly budget as an amount; unset means no budget line, anything else is refused by name', () => {
    expect(parseSettings(sample).COSTS_MONTHLY_BUDGET).toBeUndefined();
    expect(parseSettings({ ...sample, COSTS_MONTHLY_BUDGET: ' 150 ' }).COSTS_MONTHLY_BUDGET).toBe(150);
    expect(parseSettings({ ...sample, COSTS_MONTHLY_BUDGET: '149.50' }).COSTS_MONTHLY_BUDGET).toBe(149.5);
    for (const wrong of ['0', '-5', '150,00', '1e3', '12.345', 'lots']) {
      expect(() => parseSettings({ ...sample, COSTS_MONTHLY_BUDGET: wrong })).toThrow(/COSTS_MONTHLY_BUDGET must be an amount above 0/);
    }
  });
});
