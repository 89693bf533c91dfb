import * as v from 'valibot';

/**
 * Health evaluation: each component reports up, down or unknown. Only `down` makes the whole
 * service unhealthy; `unknown` (for example ingest while its status switch is off) does not.
 */
export type ComponentStatus = 'up' | 'down' | 'unknown';

export interface ComponentReport {
  status: ComponentStatus;
  detail?: string;
  latencyMs?: number;
  [field: string]: unknown;
}

export interface HealthCheck {
  name: string;
  /**
   * Loads what the check needs (an SDK kept out of the cold start) before its deadline starts:
   * a machine busy starting up must not report a component down because loading code was slow.
   */
  prepare?(): Promise<void>;
  check(): Promise<ComponentReport>;
}

export interface HealthReport {
  status: 'ok' | 'down';
  checkedAt: string;
  components: Record<string, ComponentReport>;
  failing: string[];
}

/** The body of GET /healthz as anonymous callers see it (publicHealthView), for the OpenAPI document. */
export const HealthReportSchema = v.pipe(
  v.object({
    status: v.picklist(['ok', 'down']),
    checkedAt: v.pipe(v.string(), v.isoTimestamp()),
    components: v.record(v.string(), v.looseObject({ status: v.picklist(['up', 'down', 'unknown']), latencyMs: v.optional(v.number()) })),
    failing: v.array(v.string()),
  }),
  v.title('HealthReport'),
);

/**
 * What anonymous callers see: statuses and timings, not error texts (those name internal hosts
 * and go to the log instead).
 */
export function publicHealthView(report: HealthReport): HealthReport {
  const components = Object.fromEntries(Object.entries(report.components).map(([name, { detail: _detail, ...rest }]) => [name, rest]));
  return { ...report, components };
}

export async function evaluateHealth(checks: readonly HealthCheck[], timeoutMs = 3_000): Promise<HealthReport> {
  const entries = await Promise.all(checks.map(async (health) => [health.name, await runCheck(health, timeoutMs)] as const));
  const components = Object.fromEntries(entries);
  const failing = entries.filter(([, report]) => report.status === 'down').map(([name]) => name);
  return { status: failing.length ? 'down' : 'ok', checkedAt: new Date().toISOString(), components, failing };
}

async function runCheck(health: HealthCheck, timeoutMs: number): Promise<ComponentReport> {
  try {
    await health.prepare?.();
  } catch (error) {
    return { status: 'down', detail: error instanceof Error ? error.message : 'check could not be prepared' };
  }
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ComponentReport>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'down', detail: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    const report = await Promise.race([health.check(), timeout]);
    return { latencyMs: Math.round(performance.now() - started), ...report };
  } catch (error) {
    // The message of a connection error names host and port at most; never credentials. A refused
    // connection can arrive as an AggregateError with an empty message but a code.
    const code = (error as { code?: unknown } | null)?.code;
    const detail = (error instanceof Error && error.message) || (typeof code === 'string' && code) || 'check failed';
    return { status: 'down', detail, latencyMs: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}
