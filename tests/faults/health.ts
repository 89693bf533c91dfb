import type { FaultProxy } from '../support/faultProxy';
import { readJson, type JsonObject } from '../support/http';
import type { TestHost } from '../support/testHost';

export interface HealthAnswer {
  status: number;
  body: JsonObject & { failing: string[] };
}

/** GET /healthz on `host`: its status and body. */
export async function healthOf(host: Pick<TestHost, 'request'>): Promise<HealthAnswer> {
  const response = await host.request('GET', '/healthz');
  return { status: response.status, body: await readJson<JsonObject & { failing: string[] }>(response) };
}

/**
 * Checks that /healthz is 200 first, then cuts every connection through `proxy` and refuses new
 * ones (the dependency behind it is gone); /healthz as it answers then.
 */
export async function healthAfterCut(host: Pick<TestHost, 'request'>, proxy: FaultProxy): Promise<HealthAnswer> {
  expect((await healthOf(host)).status).toBe(200);
  proxy.refuse();
  proxy.cutAll();
  return healthOf(host);
}
