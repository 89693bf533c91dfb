import path from 'node:path';
import { createFakeTls } from '../costsFake/certificate';
import { serveFakeToHost } from '../local/hostWithFake';
import { localDataDir } from '../local/paths';
import { describeEnvelope } from './describe';
import { startFakeAppInsights, type TelemetryEnvelope } from './server';

/**
 * `npm run telemetry:local`: the local Application Insights ingestion endpoint, and `npm start` as
 * a child process sending its telemetry there (APPLICATIONINSIGHTS_CONNECTION_STRING names the
 * endpoint, NODE_EXTRA_CA_CERTS its certificate: Node reads that only when a process starts, hence
 * the child). Each operation, dependency and log record received is printed as one line.
 * `--only` runs just the endpoint and prints the settings for another host (`func start`).
 */
async function main(): Promise<void> {
  const only = process.argv.includes('--only');
  const tls = await createFakeTls(path.join(localDataDir(), 'appinsights-fake'));
  const printed = new WeakSet<TelemetryEnvelope>();
  const fake = await startFakeAppInsights({ tls, keep: 5_000 });
  // The exporter sends every few seconds; what arrived since the last look is printed.
  const printer = setInterval(() => {
    for (const envelope of fake.envelopes) {
      if (printed.has(envelope)) continue;
      printed.add(envelope);
      const line = describeEnvelope(envelope);
      if (line) console.log(`[telemetry] ${line}`);
    }
  }, 1_000);
  const env = { APPLICATIONINSIGHTS_CONNECTION_STRING: fake.connectionString, NODE_EXTRA_CA_CERTS: tls.caFile };
  console.log(`Local Application Insights ingestion: ${/IngestionEndpoint=([^;]+)/.exec(fake.connectionString)?.[1] ?? ''}`);
  const close = () => {
    clearInterval(printer);
    return fake.close();
  };

  serveFakeToHost(env, close, only);
}

main().catch((error: unknown) => {
  console.error(`telemetry:local failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
