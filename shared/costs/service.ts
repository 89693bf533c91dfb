import { BusyError, UnavailableError, UpstreamError, type DomainError } from '../errors/domainErrors';
import type { Logger } from '../log/logger';
import { redact } from '../log/redact';
import { telemetry } from '../telemetry/telemetry';
import { accumulate, type Accumulated } from './accumulated';
import type { CostProvider } from './azureProvider';
import { SingleFlightCache, type CacheHit } from './cache';
import { toCsv } from './csv';
import { breakDown, exportLines, summarise, timeseriesOf, type Breakdown, type Summary, type Timeseries } from './figures';
import { costWindows, trailingDays, windowsCovering, type DayRange } from './period';
import { CostProviderError, type CostFailure } from './providerErrors';
import type { ForecastRow, UsageRow } from './wire';

/** The spec's cache: 30 minutes per endpoint and parameters, and per provider query. */
export const CACHE_TTL_MS = 30 * 60_000;

/** What every data answer carries besides its figures. */
export interface Freshness {
  /** When the data was fetched from the provider (ISO 8601). */
  asOf: string;
  /** Whether the answer came from the cache rather than a provider call made for it. */
  cached: boolean;
  /** Served past its 30 minutes because the provider is rate-limiting or failing. */
  stale: boolean;
}

export type Answer<T> = T & Freshness;

export interface CsvExport extends Freshness {
  csv: string;
  filename: string;
}

export type CostEndpoint = 'summary' | 'breakdown' | 'timeseries' | 'accumulated' | 'export';

export interface CostService {
  status(): { configured: boolean; asOf: string; cached: false };
  summary(log: Logger): Promise<Answer<Summary>>;
  breakdown(log: Logger): Promise<Answer<Breakdown>>;
  timeseries(days: number, log: Logger): Promise<Answer<Timeseries>>;
  accumulated(log: Logger): Promise<Answer<Accumulated>>;
  exportCsv(days: number, log: Logger): Promise<CsvExport>;
}

export interface CostServiceOptions {
  /** Undefined when the four credentials are not all set. */
  provider: (() => CostProvider) | undefined;
  now?: () => Date;
  /** Values that must never reach a log line (the client secret). */
  secrets?: readonly string[];
  /** The monthly budget drawn on the accumulated chart (COSTS_MONTHLY_BUDGET); none when unset. */
  budget?: number;
}

const OPERATOR_TEXT: Record<CostFailure, string> = {
  secret_expired:
    "The cost reader's client secret has expired: create a new client secret for the app registration, store it as the deployment secret INTERNAL_CLOUD_COST_CLIENT_SECRET and redeploy.",
  access_denied: 'The cost reader may not read costs: assign it the Cost Management Reader role on the subscription.',
  provider_not_registered:
    'The subscription is not registered for the Microsoft.CostManagement resource provider: register the resource provider on the subscription.',
  rate_limited: 'The cost provider is rate-limiting requests',
  provider_unavailable: 'The cost provider is not reachable or failed; try again later.',
  provider_refused: 'The provider did not accept the request.',
};

export const NOT_CONFIGURED_TEXT =
  'Cost monitoring is not configured: set INTERNAL_CLOUD_COST_TENANT_ID, INTERNAL_CLOUD_COST_CLIENT_ID, INTERNAL_CLOUD_COST_CLIENT_SECRET and INTERNAL_CLOUD_COST_SUBSCRIPTION_ID.';

/** The domain error a provider failure reaches the caller as (the dispatcher makes it problem+json). */
export function domainErrorFor(failure: CostProviderError): DomainError {
  if (failure.failure === 'rate_limited') {
    const wait = failure.retryAfterSeconds ?? 60;
    return new BusyError(`${OPERATOR_TEXT.rate_limited}; try again in ${wait} seconds.`, wait, { code: 'rate_limited' });
  }
  return new UpstreamError(OPERATOR_TEXT[failure.failure], { code: failure.failure });
}

// 429 and provider outages may fall back on the last data; a refusal or a credential problem may not.
const allowsStale = (error: unknown) =>
  error instanceof CostProviderError && (error.failure === 'rate_limited' || error.failure === 'provider_unavailable');
const holdFor = (error: unknown) =>
  error instanceof CostProviderError && error.failure === 'rate_limited' ? error.retryAfterSeconds : undefined;

/** The provider calls an operator watches (costs.provider.calls by query and outcome). */
async function countedCall<T>(query: 'usage' | 'forecast', call: () => Promise<T>): Promise<T> {
  try {
    const value = await call();
    telemetry()?.count('costs.provider.calls', 1, { query, outcome: 'ok' });
    return value;
  } catch (error) {
    telemetry()?.count('costs.provider.calls', 1, { query, outcome: error instanceof CostProviderError ? error.failure : 'error' });
    throw error;
  }
}

/** Answers served from the cache instead of the provider (costs.cache.hits by query). */
async function countedHit<T extends { cached: boolean }>(query: 'usage' | 'forecast', hit: Promise<T>): Promise<T> {
  const value = await hit;
  if (value.cached) telemetry()?.count('costs.cache.hits', 1, { query });
  return value;
}

interface Loaded<T> {
  value: T;
  loadedAt: number;
  cached: boolean;
  stale: boolean;
}

function freshness(parts: readonly Omit<Loaded<unknown>, 'value'>[]): Freshness {
  const stale = parts.some((part) => part.stale);
  // Stale data can only have come from the cache, even when other parts were fetched anew.
  return {
    asOf: new Date(Math.min(...parts.map((part) => part.loadedAt))).toISOString(),
    cached: stale || parts.every((part) => part.cached),
    stale,
  };
}

/**
 * The cost dashboard's data: three provider queries per refresh (month to date, last month with
 * the rest of the 30-day window, the forecast), cached and shared by every endpoint, and one
 * cached answer per endpoint and parameters.
 */
export function createCostService(options: CostServiceOptions): CostService {
  const now = options.now ?? (() => new Date());
  const nowMs = () => now().getTime();
  const secrets = options.secrets ?? [];
  const usage = new SingleFlightCache<UsageRow[]>(CACHE_TTL_MS, nowMs);
  const forecasts = new SingleFlightCache<ForecastRow[] | undefined>(CACHE_TTL_MS, nowMs);
  const answers = new SingleFlightCache<{ value: unknown; freshness: Freshness }>(CACHE_TTL_MS, nowMs);
  let provider: CostProvider | undefined;

  const providerOrFail = (): CostProvider => {
    if (!options.provider) throw new UnavailableError(NOT_CONFIGURED_TEXT, { code: 'not_configured' });
    provider ??= options.provider();
    return provider;
  };

  const rangeKey = (range: DayRange) => `${range.from}/${range.to}`;
  const usageOf = (range: DayRange) =>
    countedHit(
      'usage',
      usage.get(rangeKey(range), () => countedCall('usage', () => providerOrFail().usage(range)), { staleOn: allowsStale, holdFor }),
    );
  const forecastOf = (range: DayRange) =>
    countedHit(
      'forecast',
      forecasts.get(rangeKey(range), () => countedCall('forecast', () => providerOrFail().forecast(range)), {
        staleOn: allowsStale,
        holdFor,
      }),
    );

  async function rowsFor(range: DayRange, windows: ReturnType<typeof costWindows>): Promise<Loaded<UsageRow[]>> {
    const parts = await Promise.all(windowsCovering(range, windows).map(usageOf));
    return { value: parts.flatMap((part) => part.value), ...freshness(parts), loadedAt: Math.min(...parts.map((part) => part.loadedAt)) };
  }

  /** One endpoint's answer, cached per endpoint and parameters; a failure is logged once per load. */
  async function answer<T>(
    endpoint: CostEndpoint,
    key: string,
    log: Logger,
    compute: () => Promise<{ value: T; parts: CacheHit<unknown>[] }>,
  ): Promise<T & Freshness> {
    providerOrFail();
    let hit: CacheHit<{ value: unknown; freshness: Freshness }>;
    try {
      hit = await answers.get(
        `${endpoint}:${key}`,
        async () => {
          try {
            const { value, parts } = await compute();
            return { value, freshness: freshness(parts) };
          } catch (error) {
            if (error instanceof CostProviderError) {
              const fields = {
                failure: error.failure,
                status: error.httpStatus ?? null,
                providerCode: error.providerCode ?? null,
                error: redact(error.message, secrets),
              };
              if (error.failure === 'rate_limited' || error.failure === 'provider_unavailable')
                log.warn(`cloud_costs_${endpoint}_failed`, fields);
              else log.error(`cloud_costs_${endpoint}_failed`, fields);
            }
            throw error;
          }
        },
        { keep: (loaded) => !(loaded as { freshness: Freshness }).freshness.stale },
      );
    } catch (error) {
      if (error instanceof CostProviderError) throw domainErrorFor(error);
      throw error;
    }
    const { value, freshness: inner } = hit.value;
    return { ...(value as T), asOf: inner.asOf, cached: hit.cached || inner.cached, stale: inner.stale };
  }

  return {
    status: () => ({ configured: options.provider !== undefined, asOf: now().toISOString(), cached: false }),

    summary(log) {
      const windows = costWindows(now());
      return answer('summary', windows.today, log, async () => {
        const [month, previous, forecast] = await Promise.all([
          usageOf(windows.month),
          usageOf(windows.previous),
          forecastOf(windows.forecastMonth),
        ]);
        return { value: summarise(windows, month.value, previous.value, forecast.value), parts: [month, previous, forecast] };
      });
    },

    breakdown(log) {
      const windows = costWindows(now());
      return answer('breakdown', windows.today, log, async () => {
        const month = await usageOf(windows.month);
        return { value: breakDown(windows, month.value), parts: [month] };
      });
    },

    accumulated(log) {
      const windows = costWindows(now());
      return answer('accumulated', windows.today, log, async () => {
        // The same three queries as the summary: a dashboard load still costs three calls.
        const [month, previous, forecast] = await Promise.all([
          usageOf(windows.month),
          usageOf(windows.previous),
          forecastOf(windows.forecastMonth),
        ]);
        return {
          value: accumulate(windows, month.value, previous.value, forecast.value, options.budget ?? null),
          parts: [month, previous, forecast],
        };
      });
    },

    timeseries(days, log) {
      const windows = costWindows(now());
      const range = trailingDays(windows.today, days);
      return answer('timeseries', `${windows.today}:${days}`, log, async () => {
        const rows = await rowsFor(range, windows);
        return { value: timeseriesOf(range, rows.value, windows.today), parts: [{ ...rows, value: undefined }] };
      });
    },

    async exportCsv(days, log) {
      const windows = costWindows(now());
      const range = trailingDays(windows.today, days);
      const result = await answer('export', `${windows.today}:${days}`, log, async () => {
        const rows = await rowsFor(range, windows);
        return { value: { csv: toCsv(exportLines(range, rows.value)) }, parts: [{ ...rows, value: undefined }] };
      });
      return { ...result, filename: `costs-${range.from}-to-${range.to}.csv` };
    },
  };
}
