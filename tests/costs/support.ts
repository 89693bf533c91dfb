import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readFakeTls } from '../../development/costsFake/certificate';
import type { FakeDataset } from '../../development/costsFake/dataset';
import { startFakeCostProvider, type FakeCostProvider, type FakeProviderOptions } from '../../development/costsFake/server';
import { azureCostProvider } from '../../shared/costs/azureProvider';
import type { CostProviderConfig } from '../../shared/costs/config';
import { createCostService, type CostService } from '../../shared/costs/service';
import { createLogger, type Logger } from '../../shared/log/logger';
import { useAround } from '../support/around';

export const fixtureDataset = JSON.parse(
  readFileSync(path.join(__dirname, '..', 'fixtures', 'cost-management', 'dataset.json'), 'utf8'),
) as FakeDataset;

export const SECRET = 'Sup3r~S3cret.Value_for-tests-7Q';
export const SUBSCRIPTION = '00000000-0000-0000-0000-000000000000';

/** The fake provider on its TLS certificate (made by globalSetup, trusted through NODE_EXTRA_CA_CERTS). */
export function startFake(options: Partial<FakeProviderOptions> = {}): Promise<FakeCostProvider> {
  const caFile = process.env['NODE_EXTRA_CA_CERTS'];
  if (!caFile) throw new Error('NODE_EXTRA_CA_CERTS is not set: run the cost tests through jest (tests/support/globalSetup.ts)');
  const { cert, key } = readFakeTls(caFile);
  return startFakeCostProvider({
    tls: { cert, key },
    dataset: fixtureDataset,
    tenantId: 'tenant-1',
    clientId: 'client-1',
    clientSecret: SECRET,
    subscriptionId: SUBSCRIPTION,
    ...options,
  });
}

/** The fake provider started before a describe block's tests and closed after them. */
export function useFake(options: Partial<FakeProviderOptions> = {}): () => FakeCostProvider {
  return useAround(
    'the cost provider fake',
    () => startFake(options),
    (fake) => fake.close(),
  );
}

export function configFor(fake: FakeCostProvider, overrides: Partial<CostProviderConfig> = {}): CostProviderConfig {
  return {
    tenantId: 'tenant-1',
    clientId: 'client-1',
    clientSecret: SECRET,
    subscriptionId: SUBSCRIPTION,
    authUrl: fake.authUrl,
    apiUrl: fake.apiUrl,
    ...overrides,
  };
}

/** A clock the test moves. */
export function clockAt(iso: string): { now: () => Date; set(iso: string): void; advance(ms: number): void } {
  let current = new Date(iso).getTime();
  return {
    now: () => new Date(current),
    set(next) {
      current = new Date(next).getTime();
    },
    advance(ms) {
      current += ms;
    },
  };
}

/** The production service and Azure provider, pointed at the fake. */
export function serviceFor(
  fake: FakeCostProvider,
  now: () => Date,
  overrides: Partial<CostProviderConfig> = {},
  budget?: number,
): CostService {
  const config = configFor(fake, overrides);
  return createCostService({ provider: () => azureCostProvider(config), now, secrets: [config.clientSecret], budget });
}

export interface CapturedLog {
  log: Logger;
  lines: string[];
  events(): { level: string; event: string; [field: string]: unknown }[];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  return {
    log: createLogger({ minLevel: 'debug', sink: (_level, line) => lines.push(line) }),
    lines,
    events: () => lines.map((line) => JSON.parse(line) as { level: string; event: string }),
  };
}
