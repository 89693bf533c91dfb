import { costsFunction } from '../../functions/costs';
import type { FakeDataset } from '../../development/costsFake/dataset';
import type { FakeCostProvider } from '../../development/costsFake/server';
import type { CostService } from '../../shared/costs/service';
import { useTestHost } from '../support/testHost';
import { bearer } from '../support/tokens';
import { clockAt, fixtureDataset, serviceFor, startFake } from './support';

/**
 * Names a spreadsheet would run as formulas (OWASP CSV injection) reach the export through the
 * provider: resource groups and service names are whatever the subscription's owners typed.
 */
const hostileDataset: FakeDataset = {
  columns: fixtureDataset.columns,
  rows: [
    [1.5, 20261102, '=HYPERLINK("http://evil.example","x")', 'Storage', 'EUR'],
    [2, 20261103, '+cmd|/c calc!A1', '-2+3', 'EUR'],
    [3, 20261104, '@SUM(A1:A9)', '\tTabbed', 'EUR'],
    [4, 20261105, '\rReturned', 'Key Vault', 'EUR'],
    // A refund is a negative number and stays one; so does a name that is a plain number.
    [-1.25, 20261106, '-42', '+7.5', 'EUR'],
    [5, 20261107, 'rg-plain', 'Azure App Service', 'EUR'],
  ],
  forecast: fixtureDataset.forecast,
};

describe('cost CSV export with formula-like names from the provider', () => {
  let fake: FakeCostProvider;
  let service: CostService;

  beforeAll(async () => {
    fake = await startFake({ dataset: hostileDataset });
    service = serviceFor(fake, clockAt('2026-11-21T10:00:00Z').now);
  });
  const host = useTestHost([costsFunction(() => service)]);
  afterAll(async () => {
    await fake.close();
  });

  it('prefixes every cell starting with = + - @, tab or carriage return with a quote, numbers excepted', async () => {
    const response = await host.request('GET', '/api/admin/v1/costs/export.csv?days=30', {
      headers: await bearer('admin-1', { roles: ['billing_admin'] }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(
      [
        'date,resourceGroup,service,cost,currency',
        `2026-11-02,"'=HYPERLINK(""http://evil.example"",""x"")",Storage,1.5000,EUR`,
        "2026-11-03,'+cmd|/c calc!A1,'-2+3,2.0000,EUR",
        "2026-11-04,'@SUM(A1:A9),'\tTabbed,3.0000,EUR",
        `2026-11-05,"'\rReturned",Key Vault,4.0000,EUR`,
        '2026-11-06,-42,+7.5,-1.2500,EUR',
        '2026-11-07,rg-plain,Azure App Service,5.0000,EUR',
        '',
      ].join('\r\n'),
    );
  });
});
