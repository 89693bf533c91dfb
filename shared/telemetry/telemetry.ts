import type { LogFields, LogLevel } from '../log/logRecord';

/**
 * The one telemetry seam of every process. Code records spans, log records and metrics through
 * this module; until a backend is installed (APPLICATIONINSIGHTS_CONNECTION_STRING set, see
 * startup.ts) every call is a no-op costing one branch, and nothing of OpenTelemetry is loaded.
 * The backend (sdk.ts) lives in a file of its own in the bundle, loaded with import() after the
 * functions are registered, so telemetry never sits on the cold start's import path.
 */

/** Who called an operation, without saying which one: never a token or a user id. */
export type CallerKind = 'user' | 'box' | 'service' | 'anonymous';

export type AttributeValue = string | number | boolean;
export type Attributes = Record<string, AttributeValue | undefined>;

export interface RequestStart {
  method: string;
  /** The template the operation is named by when no route matched (the function's own route). */
  fallbackRoute: string;
  /** The request's path as received: never its query string (it may carry a token). */
  path: string;
  requestId: string;
  /** W3C trace context sent by the caller, honoured as the parent. */
  traceparent: string | null;
  tracestate: string | null;
}

export interface RequestEnd {
  status: number;
  /** The matched route template (`/api/challenges/{id}/leaderboard`), when one matched. */
  route?: string;
  caller?: CallerKind;
  /** The problem's `code` of a 4xx/5xx answer, when it has one. */
  problemCode?: string;
}

/** An operation in flight: code run inside it parents its spans (queries) on it. */
export interface ActiveSpan {
  /** The trace id (32 hex digits), to link with the request id. */
  readonly traceId: string;
  run<T>(work: () => Promise<T>): Promise<T>;
}

export interface RequestSpan extends ActiveSpan {
  end(outcome: RequestEnd): void;
}

export interface JobSpan extends ActiveSpan {
  end(attributes: Attributes, error?: unknown): void;
}

export interface ChildSpan {
  end(error?: unknown, attributes?: Attributes): void;
}

/** A call to another service: its trace context goes along in the request's headers. */
export interface ClientSpan extends ChildSpan {
  /** W3C `traceparent` (and `tracestate`) naming this span, for the outgoing request. */
  readonly headers: Readonly<Record<string, string>>;
}

/** The metrics an operator alerts on (docs/observability.md): counters add, gauges record a level. */
export type CounterName =
  | 'ingest.events.applied'
  | 'ingest.events.rejected'
  | 'ingest.events.dead_lettered'
  | 'http.server.errors'
  | 'box.pushes'
  | 'costs.provider.calls'
  | 'costs.cache.hits';
export type GaugeName = 'ingest.lag.events' | 'ingest.catch_up' | 'freshness.clubs';

export interface TelemetryBackend {
  requestSpan(start: RequestStart): RequestSpan;
  jobSpan(name: string, attributes: Attributes): JobSpan;
  /**
   * A client span for one PostgreSQL statement or transaction, parented on the active operation.
   * `attributes` describe the statement, not its run: the caller hands the same (unchanged)
   * object for every run of a statement, and it is redacted once.
   */
  databaseSpan(name: string, attributes: Readonly<Attributes>): ChildSpan;
  /** A client span for one outgoing HTTP call (the box agent's pushes), parented on the active span if any. */
  clientSpan(name: string, attributes: Attributes): ClientSpan;
  log(level: LogLevel, event: string, fields: LogFields): void;
  count(name: CounterName, value: number, attributes: Attributes): void;
  gauge(name: GaugeName, value: number, attributes: Attributes): void;
  /** Hands an Azure SDK's @azure/core-tracing module the OpenTelemetry instrumenter. */
  instrumentAzureSdk(coreTracing: AzureCoreTracing): void;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** What an SDK bundle exports of its own @azure/core-tracing copy (each bundle file has one). */
export interface AzureCoreTracing {
  useInstrumenter(instrumenter: never): void;
}

let backend: TelemetryBackend | undefined;
const azureSdks: AzureCoreTracing[] = [];

/** The installed backend, or undefined while telemetry is off. */
export function telemetry(): TelemetryBackend | undefined {
  return backend;
}

/** Installs (or, with undefined, removes) the backend of this process. */
export function installTelemetry(next: TelemetryBackend | undefined): void {
  backend = next;
  if (next) for (const sdk of azureSdks) next.instrumentAzureSdk(sdk);
}

/**
 * Called by each lazily loaded Azure SDK file with its @azure/core-tracing: its client calls become
 * dependency spans once telemetry runs, whether the SDK or the telemetry loaded first.
 */
export function registerAzureSdk(coreTracing: AzureCoreTracing): void {
  if (azureSdks.includes(coreTracing)) return;
  azureSdks.push(coreTracing);
  backend?.instrumentAzureSdk(coreTracing);
}

/** Runs `work` inside `span` when there is one. */
export function within<T>(span: ActiveSpan | undefined, work: () => Promise<T>): Promise<T> {
  return span ? span.run(work) : work();
}
