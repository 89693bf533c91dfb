import {
  context,
  metrics,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { logs, SeverityNumber } from '@opentelemetry/api-logs';
import { shutdownAzureMonitor, useAzureMonitor, type AzureMonitorOpenTelemetryOptions } from '@azure/monitor-opentelemetry';
import { AzureFunctionsInstrumentation } from '@azure/functions-opentelemetry-instrumentation';
import { createAzureSdkInstrumentation } from '@azure/opentelemetry-instrumentation-azure-sdk';
import os from 'node:os';
import { defaultEnvironment, defaultResourceAttribute } from '../config/settings';
import type { LogFields, LogLevel } from '../log/logRecord';
import { redact } from '../log/redact';
import type {
  Attributes,
  AzureCoreTracing,
  ChildSpan,
  ClientSpan,
  CounterName,
  GaugeName,
  JobSpan,
  RequestEnd,
  RequestSpan,
  RequestStart,
  TelemetryBackend,
} from './telemetry';

/**
 * The OpenTelemetry backend: the Azure Monitor distro (traces, logs and metrics to Application
 * Insights) plus what this service records itself. Bundled into a file of its own
 * (dist/telemetrySdk.js), loaded by startup.ts with import(): the distro takes the best part of a
 * second to load, which no cold start may pay.
 */
export interface TelemetrySdkOptions {
  connectionString: string;
  /** Values that never leave the process (client secrets, connection strings): replaced in every record. */
  secrets: readonly string[];
  /** The service's name in Application Insights (cloud role): function app, worker, box agent, command. */
  serviceName: string;
  /** `app.hook` of the bundled @azure/functions, when this process is the function app. */
  functionsHooks?: FunctionsHooks;
  /** Extra processors and readers (tests: in-memory exporters; the bench). */
  spanProcessors?: AzureMonitorOpenTelemetryOptions['spanProcessors'];
  logRecordProcessors?: AzureMonitorOpenTelemetryOptions['logRecordProcessors'];
  metricReaders?: AzureMonitorOpenTelemetryOptions['metricReaders'];
  /** Every trace kept (tests, bench); otherwise the distro's rate limit (5 traces per second) or OTEL_TRACES_SAMPLER. */
  sampleEverything?: boolean;
  /**
   * Where the Azure Monitor exporters send their requests instead of the network (the bench:
   * envelopes are built and serialised as in production, then kept in memory). Unset: HTTPS to
   * the connection string's ingestion endpoint.
   */
  exporterHttpClient?: ExporterHttpClient;
  /** Live metrics and offline retry storage: on in production, off in tests. */
  liveMetrics?: boolean;
  offlineStorage?: boolean;
}

export type ExporterHttpClient = NonNullable<NonNullable<AzureMonitorOpenTelemetryOptions['azureMonitorExporterOptions']>['httpClient']>;

/** The part of @azure/functions' `app.hook` the Functions instrumentation uses. */
export interface FunctionsHooks {
  log(handler: (context: { message: string; level: string }) => void): { dispose(): unknown };
  preInvocation(handler: (context: { invocationContext: unknown; functionHandler: unknown }) => void): { dispose(): unknown };
}

const SEVERITY: Record<LogLevel, SeverityNumber> = {
  debug: SeverityNumber.DEBUG,
  info: SeverityNumber.INFO,
  warn: SeverityNumber.WARN,
  error: SeverityNumber.ERROR,
};

const COUNTER_UNITS: Record<CounterName, string> = {
  'ingest.events.applied': '{event}',
  'ingest.events.rejected': '{event}',
  'ingest.events.dead_lettered': '{event}',
  'http.server.errors': '{response}',
  'box.pushes': '{push}',
  'costs.provider.calls': '{call}',
  'costs.cache.hits': '{hit}',
};

export function startTelemetrySdk(options: TelemetrySdkOptions): TelemetryBackend {
  // The distro reads these from the environment only. Statsbeat (the exporter's reports about
  // itself to an endpoint of Microsoft's, not the configured resource) is off: the service sends
  // telemetry to the connection string's endpoint and nowhere else.
  defaultEnvironment({ APPLICATION_INSIGHTS_NO_STATSBEAT: 'true', OTEL_SERVICE_NAME: options.serviceName });
  nameThisInstance();
  useAzureMonitor({
    azureMonitorExporterOptions: {
      connectionString: options.connectionString,
      ...(options.offlineStorage === false ? { disableOfflineStorage: true } : {}),
      ...(options.exporterHttpClient ? { httpClient: options.exporterHttpClient } : {}),
    },
    ...(options.sampleEverything ? { samplingRatio: 1, tracesPerSecond: 0 } : {}),
    enableLiveMetrics: options.liveMetrics ?? true,
    // The service makes its own spans: the dispatcher's server span per operation (a server span
    // of the http module would name requests by URL, not by template), a span per PostgreSQL
    // statement from the pool (postgres.js is not pg). The Azure SDKs report through azureSdk.
    instrumentationOptions: {
      http: { enabled: false },
      azureSdk: { enabled: true },
      postgreSql: { enabled: false },
      mongoDb: { enabled: false },
      mySql: { enabled: false },
      redis: { enabled: false },
      redis4: { enabled: false },
    },
    ...(options.spanProcessors ? { spanProcessors: options.spanProcessors } : {}),
    ...(options.logRecordProcessors ? { logRecordProcessors: options.logRecordProcessors } : {}),
    ...(options.metricReaders ? { metricReaders: options.metricReaders } : {}),
  });

  const tracer = trace.getTracer('shooting-club-backend');
  const logger = logs.getLogger('shooting-club-backend');
  const meter = metrics.getMeter('shooting-club-backend');
  const secrets = options.secrets.filter((secret) => secret.length > 0);
  const clean = (attributes: Attributes) => cleanAttributes(attributes, secrets);
  // A statement's attributes are the same object on every run of it (shared/db/querySpan.ts):
  // redacted once, not once per query (its text is up to 2,000 characters).
  const cleanedOnce = new WeakMap<Attributes, Record<string, string | number | boolean>>();
  const cleanStatic = (attributes: Attributes) => {
    let cleaned = cleanedOnce.get(attributes);
    if (!cleaned) {
      cleaned = clean(attributes);
      cleanedOnce.set(attributes, cleaned);
    }
    return cleaned;
  };
  // `${method} ${template}` per pair, made once: the operation's name and its metrics dimension.
  const operationNames = new Map<string, Map<string, string>>();
  const operationName = (method: string, route: string) => {
    let byRoute = operationNames.get(method);
    if (!byRoute) operationNames.set(method, (byRoute = new Map<string, string>()));
    let name = byRoute.get(route);
    if (name === undefined) {
      name = `${method} ${route}`;
      // The route table bounds the pairs; a cap keeps a caller's invented methods from growing it.
      if (byRoute.size < 1_000) byRoute.set(route, name);
    }
    return name;
  };

  const counters = new Map<CounterName, ReturnType<typeof meter.createCounter>>();
  const counter = (name: CounterName) => {
    let created = counters.get(name);
    if (!created) {
      created = meter.createCounter(name, { unit: COUNTER_UNITS[name] });
      counters.set(name, created);
    }
    return created;
  };
  const gauges = new Map<GaugeName, ReturnType<typeof meter.createGauge>>();
  const disposables: { dispose(): unknown }[] = [];
  if (options.functionsHooks) disposables.push(...instrumentFunctions(options.functionsHooks));
  const azureSdk = createAzureSdkInstrumentation();

  const operations: OperationRecorder = {
    name: operationName,
    count: (name, operation, status) => counter(name).add(1, { operation, status }),
    secrets,
  };

  const activeSpan = (span: Span, parent: Context) => {
    const scope = trace.setSpan(parent, span);
    return {
      traceId: span.spanContext().traceId,
      run: <T>(work: () => Promise<T>) => context.with(scope, work),
    };
  };

  return {
    requestSpan(start: RequestStart): RequestSpan {
      const parent = requestParent(start);
      // The samplers decide on the trace id alone: attributes are set after the decision, and
      // only on a span that records (a dropped trace builds and redacts none).
      const span = tracer.startSpan(operationName(start.method, start.fallbackRoute), SERVER, parent);
      const detailed = isSampled(span);
      if (detailed) {
        span.setAttribute('http.request.method', redact(start.method, secrets));
        span.setAttribute('url.path', redact(start.path, secrets));
        span.setAttribute('app.request_id', redact(start.requestId, secrets));
      }
      return new Operation(span, trace.setSpan(parent, span), start, detailed, operations);
    },

    jobSpan(name, attributes): JobSpan {
      const parent = context.active();
      const span = tracer.startSpan(name, { kind: SpanKind.SERVER, attributes: clean(attributes) }, parent);
      return {
        ...activeSpan(span, parent),
        end(outcome, error) {
          span.setAttributes(clean(outcome));
          if (error !== undefined) failSpan(span, error, secrets);
          span.end();
        },
      };
    },

    databaseSpan(name, attributes): ChildSpan {
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT });
      if (isSampled(span)) span.setAttributes(cleanStatic(attributes));
      return {
        end(error, more) {
          if (!span.isRecording()) return;
          if (more) span.setAttributes(clean(more));
          if (error !== undefined) failSpan(span, error, secrets);
          span.end();
        },
      };
    },

    clientSpan(name, attributes): ClientSpan {
      const parent = context.active();
      const span = tracer.startSpan(name, { kind: SpanKind.CLIENT }, parent);
      if (isSampled(span)) span.setAttributes(clean(attributes));
      // The callee continues this trace (the dispatcher honours traceparent); an unsampled span's
      // context goes along too, so the callee drops the trace as well.
      const headers: Record<string, string> = {};
      propagation.inject(trace.setSpan(parent, span), headers);
      return {
        headers,
        end(error, more) {
          if (!span.isRecording()) return;
          if (more) span.setAttributes(clean(more));
          if (error !== undefined) failSpan(span, error, secrets);
          span.end();
        },
      };
    },

    log(level, event, fields) {
      logger.emit({
        severityNumber: SEVERITY[level],
        severityText: level.toUpperCase(),
        body: event,
        attributes: logAttributes(fields, secrets),
        context: context.active(),
      });
    },

    count(name, value, attributes) {
      counter(name).add(value, clean(attributes));
    },

    gauge(name, value, attributes) {
      let gauge = gauges.get(name);
      if (!gauge) {
        gauge = meter.createGauge(name);
        gauges.set(name, gauge);
      }
      gauge.record(value, clean(attributes));
    },

    instrumentAzureSdk(coreTracing: AzureCoreTracing) {
      const definitions = (azureSdk as unknown as { init(): ModuleDefinition | ModuleDefinition[] | void }).init();
      for (const definition of [definitions ?? []].flat()) definition.patch?.(coreTracing);
    },

    async flush() {
      // An unreachable endpoint is the exporter's to retry (offline storage), not the caller's failure.
      await Promise.all(
        [trace.getTracerProvider(), logs.getLoggerProvider(), metrics.getMeterProvider()].map((provider) =>
          forceFlush(provider).catch(() => undefined),
        ),
      );
    },

    async shutdown() {
      for (const disposable of disposables) disposable.dispose();
      await shutdownAzureMonitor();
    },
  };
}

const SERVER = { kind: SpanKind.SERVER };

/** What an operation's span uses of its backend when it ends: names, counters, the secrets. */
interface OperationRecorder {
  name(method: string, route: string): string;
  count(name: 'http.server.errors' | 'box.pushes', operation: string, status: number): void;
  secrets: readonly string[];
}

/**
 * An HTTP operation's span in flight. A class, not closures: one object per request, its methods
 * shared (every request of the service makes one).
 */
class Operation implements RequestSpan {
  constructor(
    private readonly span: Span,
    private readonly scope: Context,
    private readonly start: RequestStart,
    /** Sampled: sent, so its attributes are worth building. */
    private readonly detailed: boolean,
    private readonly recorder: OperationRecorder,
  ) {}

  get traceId(): string {
    return this.span.spanContext().traceId;
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    return context.with(this.scope, work);
  }

  end(outcome: RequestEnd): void {
    const { span, start, recorder } = this;
    const route = outcome.route ?? start.fallbackRoute;
    const operation = recorder.name(start.method, route);
    if (outcome.status >= 500) recorder.count('http.server.errors', operation, outcome.status);
    // What a box sees of its pushes (accepted, refused, throttled), by operation and status.
    if (outcome.caller === 'box') recorder.count('box.pushes', operation, outcome.status);
    if (!span.isRecording()) return;
    if (route !== start.fallbackRoute) span.updateName(operation);
    if (outcome.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    // Recorded but not sampled (a percentage sampler): the distro's request metrics read the
    // status code only; nothing else is built for a span that is never sent.
    if (!this.detailed) span.setAttribute('http.response.status_code', outcome.status);
    else {
      // The route template and the caller kind are the code's own words, never a caller's:
      // they need no redaction. A problem code may come from elsewhere (an upstream's).
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', outcome.status);
      span.setAttribute('app.caller.kind', outcome.caller ?? 'anonymous');
      if (outcome.problemCode !== undefined) span.setAttribute('app.problem.code', redact(outcome.problemCode, recorder.secrets));
    }
    span.end();
  }
}

interface ModuleDefinition {
  patch?: (moduleExports: unknown) => unknown;
}

/**
 * The Functions worker instrumentation: the host's trace context becomes the parent of the
 * handler's spans, and `context.log` calls of other code reach the log pipeline. Its require hook
 * cannot see @azure/functions inside a bundle, so its patch is handed the bundle's `app.hook`;
 * `app.setup` is already done (functions/index.ts declares WorkerOpenTelemetryEnabled while the
 * app loads, when setup may still change).
 */
function instrumentFunctions(hooks: FunctionsHooks): { dispose(): unknown }[] {
  const disposables: { dispose(): unknown }[] = [];
  const shim = {
    app: {
      setup: () => undefined,
      hook: {
        log: (handler: Parameters<FunctionsHooks['log']>[0]) => hooks.log(handler),
        preInvocation: (handler: Parameters<FunctionsHooks['preInvocation']>[0]) => hooks.preInvocation(handler),
      },
    },
    Disposable: { from: (...items: { dispose(): unknown }[]) => (disposables.push(...items), { dispose: () => undefined }) },
  };
  const instrumentation = new AzureFunctionsInstrumentation();
  const definitions = (instrumentation as unknown as { init(): ModuleDefinition | ModuleDefinition[] }).init();
  for (const definition of [definitions].flat()) definition.patch?.(shim);
  return disposables;
}

/**
 * The parent of a request's span: the host's invocation span when the Functions worker bound one
 * (the instrumentation's preInvocation hook), else the caller's `traceparent`, else a new trace.
 */
function requestParent(start: RequestStart): Context {
  const active = context.active();
  if (trace.getSpanContext(active)) return active;
  if (!start.traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, {
    traceparent: start.traceparent,
    ...(start.tracestate ? { tracestate: start.tracestate } : {}),
  });
}

/**
 * The role instance (`service.instance.id`) named once: without it the distro and the exporter ask
 * the operating system for the host name again for every span (its metrics and its envelope).
 * The same value they would use; a name given in OTEL_RESOURCE_ATTRIBUTES, or by the App Service
 * detector (WEBSITE_INSTANCE_ID), still wins.
 */
function nameThisInstance(): void {
  defaultResourceAttribute('service.instance.id', os.hostname());
}

/** Whether the span is kept and sent (not only recorded for the distro's metrics, nor dropped). */
function isSampled(span: Span): boolean {
  return (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0 && span.isRecording();
}

function failSpan(span: Span, error: unknown, secrets: readonly string[]): void {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? redact(error.message, secrets) : 'failed';
  // Name and message only (as the logs): a stack can carry request data.
  span.addEvent('exception', { 'exception.type': name, 'exception.message': message });
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

function cleanAttributes(attributes: Attributes, secrets: readonly string[]): Record<string, string | number | boolean> {
  const clean: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    clean[key] = typeof value === 'string' ? redact(value, secrets) : value;
  }
  return clean;
}

/** Log fields as custom dimensions: text as it is (redacted), anything else as JSON. */
function logAttributes(fields: LogFields, secrets: readonly string[]): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'number' || typeof value === 'boolean') attributes[key] = value;
    else attributes[key] = redact(typeof value === 'string' ? value : JSON.stringify(value), secrets);
  }
  return attributes;
}

async function forceFlush(provider: unknown): Promise<void> {
  const delegate = (provider as { getDelegate?(): unknown }).getDelegate?.() ?? provider;
  await (delegate as { forceFlush?(): Promise<void> }).forceFlush?.();
}
