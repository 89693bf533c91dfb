import * as v from 'valibot';
import { flag, readEnvSettings, wholeNumber as integer } from '../shared/config/envValues';

/** Settings of the box's starter-list push, from the same .env and environment as EdgeConfig. */
export const EdgeFreshnessConfigSchema = v.object({
  /** Enables the starter-list push (needs SVC_EDGE_API_TOKEN); deploy the cloud endpoint first. */
  SVC_STARTERLIST_SYNC_ENABLED: flag(false),
  /** Push interval in seconds; well inside the cloud's 6-hour grace so a live box shows as live. */
  SVC_STARTERLIST_SYNC_SECONDS: integer(900, 10, 21_600),
});

export interface EdgeFreshnessConfig {
  starterlistSyncEnabled: boolean;
  starterlistSyncSeconds: number;
}

export const EDGE_FRESHNESS_SETTING_NAMES = Object.keys(EdgeFreshnessConfigSchema.entries);

export function parseEdgeFreshnessConfig(env: Record<string, string | undefined>): EdgeFreshnessConfig {
  const reading = readEnvSettings(EdgeFreshnessConfigSchema, EDGE_FRESHNESS_SETTING_NAMES, env, { emptyIsUnset: true });
  if (!reading.ok) throw new Error(`Invalid box settings: ${reading.problems.map((p) => `${p.setting} ${p.message}`).join('; ')}`);
  if (reading.value.SVC_STARTERLIST_SYNC_ENABLED && !env['SVC_EDGE_API_TOKEN']?.trim()) {
    throw new Error('Invalid box settings: SVC_EDGE_API_TOKEN is required when SVC_STARTERLIST_SYNC_ENABLED is true');
  }
  return {
    starterlistSyncEnabled: reading.value.SVC_STARTERLIST_SYNC_ENABLED,
    starterlistSyncSeconds: reading.value.SVC_STARTERLIST_SYNC_SECONDS,
  };
}
