import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import * as v from 'valibot';
import { parsePasswordHash } from './boxUiCredential';
import { flag, optionalText, readEnvSettings, wholeNumber as integer } from '../shared/config/envValues';

/**
 * Settings of the on-site agent, from its own .env (edge/.env) and the environment. Only this
 * module reads them; the agent itself receives a parsed EdgeConfig.
 */

/**
 * The edge token travels in every call, so it may go in clear text only to this machine itself:
 * https anywhere, http only to a loopback host.
 */
export function isSafeCloudUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return true; // not a URL at all: v.url reports that
  }
  if (url.protocol === 'https:') return true;
  if (url.protocol !== 'http:') return false;
  // URL normalises IPv4 forms (127.1, 0x7f.0.0.1) to dotted decimal and keeps IPv6 in brackets.
  return url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
}

export const EdgeConfigSchema = v.pipe(
  v.object({
    /** The box's edge API token (from `npm run edge:token`). */
    SVC_EDGE_API_TOKEN: optionalText,
    /** Base URL of the cloud backend; the sync call goes to {base}/api/edge/clubs/sync. */
    SVC_CLOUD_BASE_URL: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.url('must be a URL'),
        v.check(isSafeCloudUrl, 'must be https (http only for a loopback host: 127.0.0.0/8, ::1, localhost)'),
      ),
      'http://127.0.0.1:7071',
    ),
    SVC_CLUB_MASTER_SYNC_ENABLED: flag(false),
    SVC_CLUB_MASTER_SYNC_SECONDS: integer(21_600, 10, 604_800),
    /** The club software's mirror PostgreSQL: required by the agent bundle; `npm run edge` falls back to the embedded one. */
    SVC_MIRROR_DATABASE_URL: optionalText,
    SVC_EDGE_HOST: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '127.0.0.1'),
    SVC_EDGE_PORT: integer(7072, 0, 65_535),
    /** Timeout of one call to the cloud. */
    SVC_CLOUD_TIMEOUT_SECONDS: integer(30, 1, 600),
    /** The box UI password's scrypt hash (`node edge-agent.js hash-password`); unset: no UI, routes on loopback only. */
    SVC_BOX_UI_PASSWORD_HASH: v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.check((value) => parsePasswordHash(value) !== undefined, 'must be a hash printed by `edge-agent.js hash-password`'),
      ),
    ),
  }),
  v.check(
    (config) => !config.SVC_CLUB_MASTER_SYNC_ENABLED || config.SVC_EDGE_API_TOKEN !== undefined,
    'SVC_EDGE_API_TOKEN is required when SVC_CLUB_MASTER_SYNC_ENABLED is true',
  ),
);

export interface EdgeConfig {
  edgeApiToken: string | undefined;
  cloudBaseUrl: string;
  syncEnabled: boolean;
  syncIntervalSeconds: number;
  mirrorDatabaseUrl: string | undefined;
  host: string;
  port: number;
  cloudTimeoutSeconds: number;
  /** The box UI password's hash as set (edge/boxUiCredential.ts); undefined: none set. */
  uiPasswordHash: string | undefined;
}

export const EDGE_SETTING_NAMES = Object.keys(EdgeConfigSchema.pipe[0].entries);

/** Parses the agent's settings; throws an Error naming every bad setting (never showing values). */
export function parseEdgeConfig(env: Record<string, string | undefined>): EdgeConfig {
  const reading = readEnvSettings(EdgeConfigSchema, EDGE_SETTING_NAMES, env, { emptyIsUnset: true });
  if (!reading.ok) {
    throw new Error(`Invalid box settings: ${reading.problems.map((p) => `${p.setting} ${p.message}`).join('; ')}`);
  }
  const parsed = reading.value;
  return {
    edgeApiToken: parsed.SVC_EDGE_API_TOKEN,
    cloudBaseUrl: parsed.SVC_CLOUD_BASE_URL.replace(/\/+$/, ''),
    syncEnabled: parsed.SVC_CLUB_MASTER_SYNC_ENABLED,
    syncIntervalSeconds: parsed.SVC_CLUB_MASTER_SYNC_SECONDS,
    mirrorDatabaseUrl: parsed.SVC_MIRROR_DATABASE_URL,
    host: parsed.SVC_EDGE_HOST,
    port: parsed.SVC_EDGE_PORT,
    cloudTimeoutSeconds: parsed.SVC_CLOUD_TIMEOUT_SECONDS,
    uiPasswordHash: parsed.SVC_BOX_UI_PASSWORD_HASH,
  };
}

/**
 * The environment with the .env file's values added underneath: a variable already set in the
 * environment wins, as with `--env-file`. A missing file is not an error.
 */
export function withEnvFile(env: Record<string, string | undefined>, file: string): Record<string, string | undefined> {
  if (!existsSync(file)) return { ...env };
  const fromFile = parseEnv(readFileSync(file, 'utf8'));
  const merged: Record<string, string | undefined> = { ...fromFile };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value;
  return merged;
}
