import type { TelemetrySdkOptions } from './sdk';
import { installTelemetry, telemetry, type TelemetryBackend } from './telemetry';

/** The settings whose values never leave the process: replaced in every telemetry record. */
const SECRET_SETTINGS = [
  'APPLICATIONINSIGHTS_CONNECTION_STRING',
  'AUTH_JWT_SECRET',
  'AzureWebJobsStorage',
  'DATABASE_URL',
  'INGEST_EVENTHUB_CONNECTION',
  'INTERNAL_CLOUD_COST_CLIENT_SECRET',
  'NOTIFY_EMAIL_CONNECTION',
  'PAGING_CURSOR_KEY',
  'SVC_EDGE_API_TOKEN',
] as const;

/** The secret values among a process's settings (each process has its own settings type). */
export function secretValues(settings: Partial<Record<(typeof SECRET_SETTINGS)[number], unknown>>): string[] {
  return SECRET_SETTINGS.map((name) => settings[name]).filter((value): value is string => typeof value === 'string' && value !== '');
}

export type TelemetryStart = Omit<TelemetrySdkOptions, 'connectionString'> & {
  /** APPLICATIONINSIGHTS_CONNECTION_STRING; unset: telemetry stays off and nothing is loaded. */
  connectionString: string | undefined;
  /** Where a failed start is reported (the process goes on without telemetry). */
  onError?: (error: unknown) => void;
};

let starting: Promise<TelemetryBackend | undefined> | undefined;

/**
 * Sets telemetry up once per process: loads the OpenTelemetry backend (a file of its own in the
 * bundle) and installs it. Without a connection string nothing is loaded and nothing is sent.
 */
export function startTelemetry(options: TelemetryStart): Promise<TelemetryBackend | undefined> {
  const { connectionString, onError, ...rest } = options;
  if (!connectionString) return Promise.resolve(undefined);
  starting ??= import('./sdk')
    .then(({ startTelemetrySdk }) => {
      const backend = startTelemetrySdk({ ...rest, connectionString });
      installTelemetry(backend);
      return backend;
    })
    .catch((error: unknown) => {
      starting = undefined;
      onError?.(error);
      return undefined;
    });
  return starting;
}

/**
 * startTelemetry once the current work (the app's load and registration) is done: the import of
 * the backend then runs while the worker waits for its first invocation, not inside the require
 * the host times as the cold start. The timer holds no process open: a process that only loads
 * the app and exits never loads telemetry.
 */
export function startTelemetryAfterLoad(options: TelemetryStart): void {
  if (!options.connectionString) return;
  setTimeout(() => void startTelemetry(options), 0).unref();
}

/** Flushes and stops telemetry (tests, a command about to exit); later records are dropped. */
export async function stopTelemetry(): Promise<void> {
  const backend = telemetry();
  starting = undefined;
  installTelemetry(undefined);
  if (backend) {
    await backend.flush();
    await backend.shutdown();
  }
}
