import { getSettings } from '../shared/config/settings';
import { getSql } from '../shared/db/client';
import { optionalUser } from '../shared/http/guards';
import { defineRoute, json } from '../shared/http/route';
import { publicIngestHealth, readIngestHealth } from '../shared/ingest/health';
import { IngestHealthSchema } from '../shared/ingest/healthSchema';
import { ingestHealthSource } from '../shared/ingest/healthSource';

/**
 * GET /healthz/ingest: the ingest block. Anonymous callers get states, timestamps and counts;
 * a platform_admin or ops_admin token (capability ingest.details) adds error texts, reject
 * details, club ids and quarantine context. 503 when down; `unknown` answers 200.
 */
export const ingestHealthRoute = defineRoute({
  method: 'GET',
  path: '/healthz/ingest',
  summary:
    'Ingest health of the runner that ingests here (the worker on staging; the function on production, unknown while SVC_INGEST_STATUS_ENABLED is off); details for platform_admin and ops_admin',
  guard: optionalUser,
  response: IngestHealthSchema,
  async handle({ caller }) {
    const detail = caller.kind === 'user' && caller.capabilities.has('ingest.details');
    const health = await readIngestHealth(getSql(), { ...ingestHealthSource(getSettings()), detail });
    return json(detail ? health : publicIngestHealth(health), health.status === 'down' ? 503 : 200, { 'cache-control': 'no-store' });
  },
});
