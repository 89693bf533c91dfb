import { functionDefinitions } from '../../functions/definitions';
import { getSettings } from '../../shared/config/settings';
import { closeSql } from '../../shared/db/client';
import { createLogger } from '../../shared/log/logger';
import { secretValues, startTelemetry, stopTelemetry } from '../../shared/telemetry/startup';
import { startDevHost } from '../../development/devhost/host';
import { createMemoryIngestion } from '../../development/appInsightsFake/memoryIngestion';

/**
 * One side of the telemetry overhead bench, as a child process: the local host as `npm start`
 * runs it, with telemetry `on` (every trace kept, the Azure Monitor distro's whole pipeline; its
 * exporters build and serialise every envelope and hand it to an HTTP client in memory, or with
 * BENCH_TELEMETRY_ON_EXPORT=https send it to the local ingestion fake named by
 * APPLICATIONINSIGHTS_CONNECTION_STRING as production sends it), `sampled` (the distro's
 * production sampler, at most 5 traces per second, sending to the fake) or `off`. Sends `{ url }`
 * over IPC once listening, answers `cpu` with its CPU time so far (`{ cpuMicros }`, user +
 * system), `exported` with what the `on` side's exporters handed over (`{ exported }`) and stops
 * on `stop`.
 */
async function main(): Promise<void> {
  const side = process.argv[2];
  if (side !== 'on' && side !== 'sampled' && side !== 'off') throw new Error('usage: host.ts on|sampled|off');
  const overHttps = process.env['BENCH_TELEMETRY_ON_EXPORT'] === 'https';
  const memory = side === 'on' && !overHttps ? createMemoryIngestion() : undefined;
  if (side !== 'off') {
    const backend = await startTelemetry({
      connectionString: process.env['APPLICATIONINSIGHTS_CONNECTION_STRING'],
      secrets: secretValues(getSettings()),
      serviceName: 'bench',
      // `sampled` is what production runs: the distro's own sampler (at most 5 traces per second).
      sampleEverything: side === 'on',
      ...(memory ? { exporterHttpClient: memory } : {}),
      liveMetrics: false,
      offlineStorage: false,
    });
    if (!backend) throw new Error('telemetry did not start: is APPLICATIONINSIGHTS_CONNECTION_STRING set?');
  }
  const host = await startDevHost(functionDefinitions, {
    port: 0,
    log: createLogger({ minLevel: 'error' }),
    functionLog: (level, line) => (level === 'error' || level === 'warning' ? process.stderr : process.stdout).write(line + '\n'),
    setting: (name) => process.env[name],
    runTimers: false,
  });
  process.on('message', (message: unknown) => {
    // The bench reads this process's CPU time around each run: CPU per request, less noisy than req/s.
    if (message === 'cpu') process.send?.({ cpuMicros: cpuMicros() });
    if (message === 'exported')
      process.send?.({ exported: { ...(memory?.sent ?? { requests: 0, characters: 0 }), envelopes: memory?.envelopes().length ?? 0 } });
    if (message === 'stop')
      void Promise.all([host.close(), stopTelemetry()])
        .then(() => closeSql())
        .finally(() => process.exit(0));
  });
  process.send?.({ url: host.url });
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench host failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
