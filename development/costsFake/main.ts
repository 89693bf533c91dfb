import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { serveFakeToHost } from '../local/hostWithFake';
import { localDataDir } from '../local/paths';
import { createFakeTls } from './certificate';
import { demoDataset } from './demoData';
import { startFakeCostProvider, type FakeFailure, type FakeOperation } from './server';

/**
 * `npm run costs:fake`: the fake cost provider with demo data for the running month, and `npm
 * start` as a child process pointed at it: the INTERNAL_CLOUD_COST_* settings name the fake, and
 * NODE_EXTRA_CA_CERTS its certificate (Node reads that only when a process starts, hence the
 * child). `npm run costs:fake -- --only` runs just the fake and prints the settings for another
 * host (`func start`). `--fail <operation>:<failure>` starts with a failure switched on, e.g.
 * `--fail query:rate_limited` or `--fail token:expired_secret`.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const only = args.includes('--only');
  const failArg = args[args.indexOf('--fail') + 1];
  const tls = await createFakeTls(path.join(localDataDir(), 'costs-fake'));
  const settings = {
    INTERNAL_CLOUD_COST_TENANT_ID: 'demo-tenant',
    INTERNAL_CLOUD_COST_CLIENT_ID: 'demo-client',
    INTERNAL_CLOUD_COST_CLIENT_SECRET: randomBytes(18).toString('base64url'),
    INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: '00000000-0000-0000-0000-000000000000',
  };
  const fake = await startFakeCostProvider({
    tls,
    dataset: demoDataset(),
    tenantId: settings.INTERNAL_CLOUD_COST_TENANT_ID,
    clientId: settings.INTERNAL_CLOUD_COST_CLIENT_ID,
    clientSecret: settings.INTERNAL_CLOUD_COST_CLIENT_SECRET,
    subscriptionId: settings.INTERNAL_CLOUD_COST_SUBSCRIPTION_ID,
  });
  if (args.includes('--fail') && failArg) {
    const [operation, failure] = failArg.split(':') as [FakeOperation, FakeFailure];
    fake.fail(operation, failure);
  }
  const env = {
    ...settings,
    INTERNAL_CLOUD_COST_AUTH_URL: fake.authUrl,
    INTERNAL_CLOUD_COST_API_URL: fake.apiUrl,
    // The demo data costs about 19 EUR a day: a budget near its month so the budget line shows.
    COSTS_MONTHLY_BUDGET: process.env['COSTS_MONTHLY_BUDGET'] || '600',
    NODE_EXTRA_CA_CERTS: tls.caFile,
  };
  console.log(`Fake Entra ID:         ${fake.authUrl}`);
  console.log(`Fake Cost Management:  ${fake.apiUrl}`);

  serveFakeToHost(env, () => fake.close(), only);
}

main().catch((error: unknown) => {
  console.error(`costs:fake failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
