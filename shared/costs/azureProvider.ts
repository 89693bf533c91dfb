import type { CostManagementClient, ForecastDefinition, QueryDefinition } from '@azure/arm-costmanagement';
import { registerAzureSdk } from '../telemetry/telemetry';
import type { CostProviderConfig } from './config';
import { classifyProviderError, CostProviderError } from './providerErrors';
import type { DayRange } from './period';
import { cachingCredential } from './tokenCache';
import {
  forecastQuery,
  readForecastRows,
  readUsageRows,
  UnexpectedAnswerError,
  usageQuery,
  type ColumnarResult,
  type ForecastRow,
  type UsageRow,
} from './wire';

/** The provider's data as the cost service needs it; failures are CostProviderErrors. */
export interface CostProvider {
  /** Daily actual cost per resource group and service, every page followed. */
  usage(range: DayRange): Promise<UsageRow[]>;
  /** The daily forecast, or undefined when the provider has none (too little history, 424 or empty). */
  forecast(range: DayRange): Promise<ForecastRow[] | undefined>;
}

/** The newest stable Cost Management API version; the SDK's own default is 2022-10-01. */
export const COST_API_VERSION = '2025-03-01';
export const DEFAULT_AUTH_URL = 'https://login.microsoftonline.com';
/** The SDK sets no timeout of its own; a dashboard request should not hang on a slow provider. */
const REQUEST_TIMEOUT_MS = 30_000;
/**
 * 5xx and network failures are retried briefly, as suits an interactive page (the SDK default
 * waits up to a minute). A Cost Management 429 carries no Retry-After and is not retried at all.
 */
const RETRY_OPTIONS = { maxRetries: 2, retryDelayInMs: 400, maxRetryDelayInMs: 2_000 };
/** Pages of up to 1,000 rows; a month of days × groups × services stays far below this. */
const MAX_PAGES = 50;

type SdkModule = typeof import('./sdk');

interface Sdk {
  client: CostManagementClient;
  pipeline: SdkModule;
}

export interface AzureProviderOptions {
  /** The token cache's clock (tests move it forward). */
  now?: () => number;
  /** Milliseconds one provider request may take (default 30 s); tests of a slow provider shorten it. */
  requestTimeoutMs?: number;
}

/**
 * Cost Management through @azure/identity and @azure/arm-costmanagement. The SDKs are loaded on
 * the first call, not at import, so that no other function's cold start pays for them.
 */
export function azureCostProvider(config: CostProviderConfig, options: AzureProviderOptions = {}): CostProvider {
  let sdk: Promise<Sdk> | undefined;
  const scope = `subscriptions/${config.subscriptionId}`; // no leading slash: the SDK would send `//subscriptions`
  const apiOrigin = new URL(config.apiUrl).origin;
  const timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;

  const connect = () => {
    sdk ??= loadSdk(config, options).catch((error: unknown) => {
      sdk = undefined;
      throw error;
    });
    return sdk;
  };

  async function readAllPages(
    first: ColumnarResult,
    body: QueryDefinition | ForecastDefinition,
    { client, pipeline }: Sdk,
  ): Promise<ColumnarResult[]> {
    const pages = [first];
    let next: string | null | undefined = first.nextLink;
    while (next) {
      if (pages.length >= MAX_PAGES) throw new UnexpectedAnswerError(`more than ${MAX_PAGES} pages`);
      // The bearer token goes only to the configured API host.
      if (new URL(next).origin !== apiOrigin) throw new UnexpectedAnswerError(`nextLink leads to another host (${new URL(next).host})`);
      const request = pipeline.createPipelineRequest({
        url: next,
        method: 'POST',
        body: JSON.stringify(body),
        headers: pipeline.createHttpHeaders({ 'content-type': 'application/json; charset=utf-8', accept: 'application/json' }),
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
      const response = await client.sendRequest(request);
      if (response.status === 204) break;
      const parsed = parseJson(response.bodyAsText ?? undefined);
      if (response.status >= 400) {
        const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
        throw new pipeline.RestError(error?.message ?? `status ${response.status}`, {
          statusCode: response.status,
          code: error?.code,
          request,
          response,
        });
      }
      const properties = (parsed as { properties?: ColumnarResult } | undefined)?.properties ?? {};
      pages.push(properties);
      next = properties.nextLink;
    }
    return pages;
  }

  /** Asks for the first page of `body` with the request timeout, then reads every further page. */
  async function askAllPages<TBody extends QueryDefinition | ForecastDefinition>(
    body: TBody,
    ask: (client: Sdk['client'], body: TBody, options: { abortSignal: AbortSignal }) => Promise<ColumnarResult>,
  ): Promise<ColumnarResult[]> {
    const connection = await connect();
    const first = await ask(connection.client, body, { abortSignal: AbortSignal.timeout(timeoutMs) });
    return readAllPages(first, body, connection);
  }

  return {
    async usage(range) {
      try {
        const pages = await askAllPages(usageQuery(range), (client, body, options) => client.query.usage(scope, body, options));
        return pages.flatMap((page) => readUsageRows(page));
      } catch (error) {
        throw classify(error);
      }
    },
    async forecast(range) {
      try {
        const pages = await askAllPages(forecastQuery(range), (client, body, options) => client.forecast.usage(scope, body, options));
        const rows = pages.flatMap((page) => readForecastRows(page));
        return rows.length ? rows : undefined;
      } catch (error) {
        const failure = classify(error);
        // Not enough history (424) or a period the provider will not forecast: no forecast, not a failure.
        if (failure.httpStatus === 424 || failure.providerCode === 'FailedDependency' || failure.providerCode === 'CantForecastOnThePast') {
          return undefined;
        }
        throw failure;
      }
    },
  };
}

function classify(error: unknown): CostProviderError {
  if (error instanceof UnexpectedAnswerError) return new CostProviderError('provider_unavailable', `unreadable answer: ${error.message}`);
  return classifyProviderError(error);
}

function parseJson(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new UnexpectedAnswerError('the answer is not JSON');
  }
}

async function loadSdk(config: CostProviderConfig, options: AzureProviderOptions): Promise<Sdk> {
  const sdk = await import('./sdk');
  registerAzureSdk(sdk);
  const secretCredential = new sdk.ClientSecretCredential(config.tenantId, config.clientId, config.clientSecret, {
    authorityHost: config.authUrl,
    // MSAL would otherwise ask login.microsoftonline.com to vouch for any other authority host.
    disableInstanceDiscovery: new URL(config.authUrl).origin !== DEFAULT_AUTH_URL,
    retryOptions: RETRY_OPTIONS,
  });
  // The default token scope is `{endpoint}/.default`, i.e. `{cost_api_url}/.default`.
  const client = new sdk.CostManagementClient(cachingCredential(secretCredential, options.now), {
    endpoint: config.apiUrl,
    apiVersion: COST_API_VERSION,
    retryOptions: RETRY_OPTIONS,
  });
  return { client, pipeline: sdk };
}
