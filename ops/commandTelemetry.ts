import * as coreTracing from '@azure/core-tracing';
import { secretValues, startTelemetry, stopTelemetry } from '../shared/telemetry/startup';
import { registerAzureSdk, within } from '../shared/telemetry/telemetry';
import type { CommandEnv } from './command';

/**
 * Runs one command as a span of its own (`ops <command>`, a request in Application Insights) when
 * APPLICATIONINSIGHTS_CONNECTION_STRING is set: telemetry is set up once for the process before
 * the command, the command's queries, Azure SDK calls and log records join its trace, and
 * everything is flushed before the process exits. Without the setting nothing is loaded or sent.
 * A failed start of telemetry never stops the command: it runs untraced.
 */
export async function traceCommand(name: string, env: CommandEnv, run: () => Promise<number>): Promise<number> {
  const connectionString = env['APPLICATIONINSIGHTS_CONNECTION_STRING']?.trim() || undefined;
  const backend = await startTelemetry({
    connectionString,
    secrets: secretValues(env),
    serviceName: 'shooting-club-ops',
    // One trace per process: the rate-limited sampler, starting from nothing, would keep the
    // command's first (and only) trace about one time in twenty.
    sampleEverything: true,
    // A command lives seconds: no live metrics session, and what cannot be sent now is not kept for a later run.
    liveMetrics: false,
    offlineStorage: false,
    onError: (error) => console.error(`${name}: telemetry not started: ${error instanceof Error ? error.message : String(error)}`),
  });
  if (!backend) return run();
  // The Tables and Event Hubs clients of this bundle (backfills, replays) report their calls as dependencies.
  registerAzureSdk(coreTracing);
  const span = backend.jobSpan(`ops ${name}`, { 'app.trigger': 'command' });
  let code: number | undefined;
  try {
    code = await within(span, run);
    return code;
  } finally {
    span.end({ 'app.exit_code': code }, code === 0 ? undefined : new Error(code === undefined ? 'threw' : `exit ${code}`));
    // Flushed before the process exits; an endpoint that cannot be reached never fails the command.
    await stopTelemetry().catch(() => undefined);
  }
}
