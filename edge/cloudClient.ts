import * as v from 'valibot';
import type { BoxConsentReport } from '../shared/boxConnector/consentReport';
import { SyncResultSchema, type ReportedClub, type SyncResult } from '../shared/clubMaster/schemas';
import { tracedFetch } from '../shared/telemetry/tracedFetch';

export const SYNC_PATH = '/api/edge/clubs/sync';

/** Why a run failed, as the status endpoint reports it. */
export type FailureReason =
  | 'sync_disabled'
  | 'mirror_unavailable'
  | 'mirror_rows_invalid'
  | 'cloud_unreachable'
  | 'cloud_endpoint_missing'
  | 'token_rejected'
  | 'report_rejected'
  | 'cloud_error';

export class SyncFailure extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly httpStatus?: number,
  ) {
    super(message);
    this.name = 'SyncFailure';
  }
}

export interface CloudOptions {
  baseUrl: string;
  token: string;
  timeoutSeconds: number;
}

/**
 * Sends the complete list to the cloud, with the club's data-sharing consent as the box holds it.
 * Every failure becomes a SyncFailure with a reason; a 404 means the cloud runs a release without the sync endpoint (deploy the backend first).
 */
export async function pushKnownClubs(
  options: CloudOptions,
  clubs: readonly ReportedClub[],
  consent?: BoxConsentReport,
): Promise<SyncResult> {
  let response: Response;
  try {
    response = await tracedFetch(options.baseUrl + SYNC_PATH, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ clubs, ...(consent ? { consent } : {}) }),
      signal: AbortSignal.timeout(options.timeoutSeconds * 1000),
    });
  } catch (error) {
    const detail =
      error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${options.timeoutSeconds} s` : describe(error);
    throw new SyncFailure('cloud_unreachable', `The cloud at ${options.baseUrl} could not be reached: ${detail}.`);
  }
  if (response.ok) {
    const parsed = v.safeParse(SyncResultSchema, await response.json().catch(() => undefined));
    if (!parsed.success) throw new SyncFailure('cloud_error', 'The cloud answered the sync with an unexpected body.', response.status);
    return parsed.output;
  }
  const detail = await problemDetail(response);
  switch (response.status) {
    case 404:
      throw new SyncFailure(
        'cloud_endpoint_missing',
        'The cloud answered 404: its release has no club master sync endpoint yet. Deploy the backend release with the endpoint before enabling the push.',
        404,
      );
    case 401:
    case 403:
      throw new SyncFailure('token_rejected', `The cloud rejected the edge API token (${response.status})${detail}.`, response.status);
    case 400:
    case 413:
    case 415:
      throw new SyncFailure('report_rejected', `The cloud rejected the report (${response.status})${detail}.`, response.status);
    default:
      throw new SyncFailure('cloud_error', `The cloud failed to take the report (${response.status})${detail}.`, response.status);
  }
}

async function problemDetail(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown; errors?: { path: string; message: string }[] };
    const first = body.errors?.[0];
    const text = [typeof body.detail === 'string' ? body.detail : undefined, first ? `${first.path} ${first.message}` : undefined]
      .filter(Boolean)
      .join(' ');
    return text ? `: ${text.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? cause.message : error.message;
}
