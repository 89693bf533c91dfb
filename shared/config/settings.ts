import * as v from 'valibot';
import { flag, optionalText, readEnvSettings, wholeNumber as integer, type SettingProblem } from './envValues';

/**
 * Every app setting the code reads, parsed once. Nothing else in the app reads `process.env`:
 * a new setting is added here and to local.settings.sample.json (a test enforces the latter).
 */

const url = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((value) => value || undefined),
    v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  ),
);

/** An https URL without a trailing slash; empty means the default (the Azure SDKs refuse plain http). */
const httpsUrl = (fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => (value || fallback).replace(/\/+$/, '')),
      v.url('must be a URL'),
      v.startsWith('https://', 'must be an https URL'),
    ),
    fallback,
  );

/** `…__credential` of an identity-based connection, as the Functions host reads it. */
const identityCredentialKind = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.transform((value) => value || undefined),
    v.optional(v.picklist(['managedidentity'], 'must be managedidentity or empty')),
  ),
);

export const SettingsSchema = v.object({
  /** PostgreSQL connection string; unset locally means the embedded instance (development/); the production commands (ops/) require it. */
  DATABASE_URL: optionalText,
  DATABASE_POOL_MAX: integer(10, 1, 100),
  /** Milliseconds a user request's query waits for a free connection before a 503 with Retry-After. */
  DATABASE_POOL_WAIT_MS: integer(3_000, 10, 60_000),
  /** Connections of the separate pool for bulk work (box reports); 0 = bulk work shares the user pool. */
  DATABASE_BULK_POOL_MAX: integer(2, 0, 100),
  /** Milliseconds bulk work waits for a connection of its pool before a 503 with Retry-After. */
  DATABASE_BULK_POOL_WAIT_MS: integer(20_000, 10, 600_000),
  /** Azure Storage connection string (Azurite locally). */
  AzureWebJobsStorage: optionalText,
  /**
   * Identity-based storage connection (no secret): the account name, or the Table service URI,
   * used when AzureWebJobsStorage holds no connection string. See shared/storage/tables.ts.
   */
  AzureWebJobsStorage__accountName: optionalText,
  AzureWebJobsStorage__tableServiceUri: url,
  /** `managedidentity` to use the app's managed identity only; unset: DefaultAzureCredential's chain. */
  AzureWebJobsStorage__credential: identityCredentialKind,
  /** Client id of a user-assigned managed identity for the storage connection. */
  AzureWebJobsStorage__clientId: optionalText,
  /** HS256 secret for locally minted tokens; ignored when AUTH_JWKS_URL is set. */
  AUTH_JWT_SECRET: optionalText,
  /**
   * Secret: signs list cursors (shared/paging/cursor.ts); the same on every instance. Unset: a key
   * derived from AUTH_JWT_SECRET (local development); production reads it from Key Vault.
   */
  PAGING_CURSOR_KEY: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => value || undefined),
      v.optional(
        v.pipe(
          v.string(),
          v.minLength(32, 'must be at least 32 characters'),
          // A Key Vault reference the platform could not resolve arrives as its own text: never a key.
          v.check((value) => !value.startsWith('@Microsoft.KeyVault('), 'is a Key Vault reference that was not resolved'),
        ),
      ),
    ),
  ),
  /** JWKS endpoint of the identity provider (Entra ID); switches verification to RS256. */
  AUTH_JWKS_URL: url,
  AUTH_ISSUER: v.pipe(v.optional(v.string(), ''), v.trim(), v.nonEmpty('is required')),
  AUTH_AUDIENCE: v.pipe(v.optional(v.string(), ''), v.trim(), v.nonEmpty('is required')),
  /**
   * Browser sign-in (GET /api/auth/config): the OpenID provider's issuer URL, which the portal and
   * the member app discover from (Entra ID / External ID in Azure; `npm start` sets its local one).
   * Unset: sign-in is not configured and the portal offers only the developer token paste.
   */
  AUTH_OIDC_AUTHORITY: url,
  /** Client id of the admin portal's app registration (a public client with PKCE). */
  AUTH_PORTAL_CLIENT_ID: optionalText,
  /** Client id of the member app's app registration (a public client with PKCE). */
  AUTH_APP_CLIENT_ID: optionalText,
  /** Scopes the browser asks for: OpenID, a refresh token, and the API's exposed scope. */
  AUTH_OIDC_SCOPE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), 'openid profile offline_access'),
  /** Offers the developer token paste beside the provider's sign-in (it is always offered without a provider). */
  AUTH_TOKEN_PASTE: flag(false),
  HTTP_MAX_BODY_BYTES: integer(1_048_576, 1_024, 104_857_600),
  LOG_LEVEL: v.optional(v.picklist(['debug', 'info', 'warn', 'error'], 'must be debug, info, warn or error'), 'info'),
  /** Port of the local development host. */
  PORT: integer(7071, 1, 65_535),
  /** NCRONTAB schedule of the club master cleanup timer (read by the Functions host as %CLUB_MASTER_CLEANUP_SCHEDULE%). */
  CLUB_MASTER_CLEANUP_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 30 3 * * *'),
  /** Days a sourceDeleted known-club row is kept before the cleanup timer purges it. */
  CLUB_MASTER_RETENTION_DAYS: integer(90, 1, 3650),
  /** Hours without a report after which a box counts as having stopped reporting (4 push intervals). */
  CLUB_MASTER_STALE_AFTER_HOURS: integer(24, 1, 8760),
  /** Reports of one box written at the same time (each holds a pool connection); more wait. */
  CLUB_MASTER_SYNC_RUNNING_PER_BOX: integer(2, 1, 64),
  /** Reports of one box allowed to wait for their turn; one more is answered 503 with Retry-After. */
  CLUB_MASTER_SYNC_WAITING_PER_BOX: integer(64, 0, 10_000),
  /** Event hub the `ingest` function reads (host expression %INGEST_EVENTHUB_NAME%). */
  INGEST_EVENTHUB_NAME: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), 'club-data'),
  /** Event Hubs connection string of the `ingest` trigger (the host reads it by name); no fallback. */
  INGEST_EVENTHUB_CONNECTION: optionalText,
  /**
   * Identity-based Event Hubs connection (no secret), as the Functions host reads it for the
   * `ingest` trigger: the namespace host (`<namespace>.servicebus.windows.net`), used when
   * INGEST_EVENTHUB_CONNECTION holds no connection string. See shared/ingest/eventHubConnection.ts.
   */
  INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace: optionalText,
  /** `managedidentity` to use the managed identity only; unset: DefaultAzureCredential's chain. */
  INGEST_EVENTHUB_CONNECTION__credential: identityCredentialKind,
  /** Client id of the user-assigned managed identity of the Event Hubs connection. */
  INGEST_EVENTHUB_CONNECTION__clientId: optionalText,
  /** Consumer group of the `ingest` trigger (host expression %INGEST_EVENTHUB_CONSUMER_GROUP%). */
  INGEST_EVENTHUB_CONSUMER_GROUP: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '$Default'),
  /**
   * Writes the function's ingest status record and reject log when true (production, switched on
   * by the rollout gate); while false GET /healthz/ingest answers unknown where the function ingests.
   */
  SVC_INGEST_STATUS_ENABLED: flag(false),
  /**
   * Which runner ingests in this environment (shared/ingest/healthSource.ts): `function`, this
   * app's Event Hubs trigger (production), or `worker`, the dedicated worker (staging), whose
   * status health then reads whatever SVC_INGEST_STATUS_ENABLED says.
   */
  INGEST_RUNNER: v.optional(v.picklist(['function', 'worker'], 'must be function or worker'), 'function'),
  /** NCRONTAB schedule of the ingest heartbeat timer (%INGEST_HEARTBEAT_SCHEDULE%); every minute. */
  INGEST_HEARTBEAT_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 * * * * *'),
  /** Contract rejects within the window that make admissionState `rejecting`. */
  INGEST_REJECTING_THRESHOLD: integer(2, 1, 500),
  /** Rejects of one path (topic, club, entity) within the window that quarantine it. */
  INGEST_QUARANTINE_THRESHOLD: integer(5, 2, 500),
  /** The reject window in seconds ("fresh" rejects, "short time"). */
  INGEST_REJECT_WINDOW_SECONDS: integer(300, 10, 86_400),
  /** Seconds without a drift signal after which sourceDriftState returns to none. */
  INGEST_DRIFT_QUIET_SECONDS: integer(900, 60, 604_800),
  /** Rows the contract reject log keeps (newest first). */
  INGEST_REJECT_LOG_MAX: integer(1000, 10, 1_000_000),
  /** Days a contract reject stays in the log at most (the count bound above applies too). */
  INGEST_REJECT_LOG_MAX_AGE_DAYS: integer(30, 1, 3650),
  /** Dead letters kept at most (events the database refused; newest first). */
  INGEST_DEAD_LETTER_MAX: integer(1000, 10, 100_000),
  /** Days a dead letter stays at most, replayed or not. */
  INGEST_DEAD_LETTER_MAX_AGE_DAYS: integer(30, 1, 3650),
  /** Storage table of the staging worker's and the backfill's checkpoints and partition ownership (AzureWebJobsStorage). */
  INGEST_CHECKPOINT_TABLE: v.optional(
    v.pipe(v.string(), v.trim(), v.regex(/^[A-Za-z][A-Za-z0-9]{2,62}$/, 'must be a table name: a letter, then 2 to 62 letters or digits')),
    'IngestCheckpoints',
  ),
  /** Events the staging worker applies per batch and partition at most. */
  INGEST_WORKER_MAX_BATCH_SIZE: integer(500, 1, 5000),
  /** Seconds between the staging worker's lag samples (and heartbeats). */
  INGEST_WORKER_LAG_SAMPLE_SECONDS: integer(30, 1, 3600),
  /** Lag samples per partition the catchUpState window keeps (docs/ingest-worker.md). */
  INGEST_WORKER_LAG_WINDOW: integer(10, 2, 1000),
  /** Stable consumer group of the backfill commands (`--group` overrides it). */
  INGEST_BACKFILL_CONSUMER_GROUP: v.optional(
    v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')),
    'shooting-club-shooter-backfill',
  ),
  /** Set by Azure per function app instance; names the ingest status row (host name when unset). */
  WEBSITE_INSTANCE_ID: optionalText,
  /** Cost reader (service principal) for the cost dashboard; the four below together switch it on. */
  INTERNAL_CLOUD_COST_TENANT_ID: optionalText,
  INTERNAL_CLOUD_COST_CLIENT_ID: optionalText,
  /** Secret: no fallback value. */
  INTERNAL_CLOUD_COST_CLIENT_SECRET: optionalText,
  INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: optionalText,
  /** {auth_url} of the client-credentials flow; another host switches instance discovery off. */
  INTERNAL_CLOUD_COST_AUTH_URL: httpsUrl('https://login.microsoftonline.com'),
  /** {cost_api_url}: base URL of Cost Management (ARM); the token scope is `{cost_api_url}/.default`. */
  INTERNAL_CLOUD_COST_API_URL: httpsUrl('https://management.azure.com'),
  /** Monthly budget in the billing currency, drawn as a line on the cost chart; unset: no line. */
  COSTS_MONTHLY_BUDGET: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.check(
        (value) => value === '' || (/^\d+(\.\d{1,2})?$/.test(value) && Number(value) > 0),
        'must be an amount above 0, like 250 or 249.50',
      ),
      v.transform((value) => (value ? Number(value) : undefined)),
    ),
  ),
  /** NCRONTAB schedule of the challenge progress sweep (%CHALLENGE_PROGRESS_SCHEDULE%). */
  CHALLENGE_PROGRESS_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 */15 * * * *'),
  /** NCRONTAB schedule (with seconds) of the drain that evaluates the shooters ingest wrote hits for (%CHALLENGE_PROGRESS_DRAIN_SCHEDULE%). */
  CHALLENGE_PROGRESS_DRAIN_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '*/2 * * * * *'),
  /** Shooters the drain claims per round (the rest wait for its next round or invocation, or the sweep); 0 turns the drain off. */
  CHALLENGE_PROGRESS_DRAIN_SHOOTERS: integer(200, 0, 10_000),
  /** Drain rounds under way at once, each on a connection of the user pool (docs/challenges.md, "Progress"). */
  CHALLENGE_PROGRESS_DRAIN_LANES: integer(2, 1, 8),
  /** NCRONTAB schedule of the timer that ends expired participations (%CHALLENGE_EXPIRY_SCHEDULE%). */
  CHALLENGE_EXPIRY_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 5 * * * *'),
  /**
   * SHA-256 (hex) of the personalization service's credential; a comma separates two during a
   * rotation. Unset: POST /api/challenges/personalize refuses every call.
   */
  CHALLENGE_SERVICE_TOKEN_HASH: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => value || undefined),
      v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}(,[0-9a-f]{64})?$/, 'must be one or two comma-separated SHA-256 hex digests'))),
    ),
  ),
  /** NCRONTAB schedule of the notification delivery timer (%NOTIFY_DELIVERY_SCHEDULE%); every minute. */
  NOTIFY_DELIVERY_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 * * * * *'),
  /**
   * Secret: Communication Services connection string (`endpoint=...;accesskey=...`) for email.
   * Unset: NOTIFY_EMAIL_ENDPOINT with the app's managed identity; neither: email stays queued.
   */
  NOTIFY_EMAIL_CONNECTION: optionalText,
  /** Communication Services endpoint (https), used with the managed identity when no connection string is set. */
  NOTIFY_EMAIL_ENDPOINT: url,
  /**
   * Client id of the user-assigned managed identity that sends to NOTIFY_EMAIL_ENDPOINT (the
   * deployed app has no system-assigned one); unset: the system-assigned identity.
   */
  NOTIFY_EMAIL_CLIENT_ID: optionalText,
  /** MailFrom address of a verified domain (`DoNotReply@mail.example.org`); required for sending. */
  NOTIFY_EMAIL_SENDER_ADDRESS: optionalText,
  /** The name emails are signed with in their text. */
  NOTIFY_EMAIL_SENDER_NAME: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(100)), 'Schützenverein'),
  /** The service's public base URL, for the one-click unsubscribe links in emails. */
  NOTIFY_PUBLIC_BASE_URL: url,
  /**
   * Secret: Notification Hubs connection string with Send and Manage rights
   * (`Endpoint=sb://<namespace>.servicebus.windows.net/;SharedAccessKeyName=...;SharedAccessKey=...`),
   * for mobile push (APNs, FCM v1). Unset, or no hub name: mobile registrations are refused (503).
   */
  NOTIFY_PUSH_HUB_CONNECTION: optionalText,
  /** The notification hub's name within that namespace. */
  NOTIFY_PUSH_HUB_NAME: optionalText,
  /** VAPID public key (base64url, uncompressed P-256 point) browsers subscribe with; GET /api/user/push-registrations/web-push-key answers it. */
  NOTIFY_WEBPUSH_PUBLIC_KEY: optionalText,
  /** Secret: the matching VAPID private key (base64url). Unset: browser registrations are refused (503). */
  NOTIFY_WEBPUSH_PRIVATE_KEY: optionalText,
  /**
   * Hosts (and their subdomains) a browser subscription's endpoint may name, comma-separated: the
   * browsers' push services. Anything else is refused at registration, so no member can make the
   * service POST to an address of their choosing.
   */
  NOTIFY_WEBPUSH_ALLOWED_HOSTS: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) =>
        value
          .split(',')
          .map((host) => host.trim().toLowerCase())
          .filter(Boolean),
      ),
      v.check((hosts) => hosts.length > 0, 'must name at least one host'),
    ),
    'fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com',
  ),
  /** VAPID contact the push services may reach the sender at: `mailto:` or `https:` (RFC 8292). */
  NOTIFY_WEBPUSH_SUBJECT: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => value || undefined),
      v.optional(v.pipe(v.string(), v.regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https: URL'))),
    ),
  ),
  /** Whole months of hits kept (by arrival): an older month's partition is dropped by the hourly maintenance (docs/ingest.md, "Hit partitions"). */
  HIT_RETENTION_MONTHS: integer(24, 1, 1200),
  /** Months of hit partitions the maintenance keeps made ahead of the current one. */
  HIT_PARTITIONS_AHEAD_MONTHS: integer(3, 1, 24),
  /** Milliseconds a partition change waits for its lock before it gives up until the next run, so it never holds ingest up longer. */
  HIT_PARTITION_LOCK_TIMEOUT_MS: integer(1000, 50, 60_000),
  /** Seconds one maintenance run spends copying an unpartitioned hit table into the partitioned one; the next run goes on. */
  HIT_MOVE_BUDGET_SECONDS: integer(240, 1, 3000),
  /** NCRONTAB schedule of the data-freshness timer (read by the Functions host as %FRESHNESS_SCHEDULE%); hourly by default. */
  FRESHNESS_SCHEDULE: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty('must not be empty')), '0 5 * * * *'),
  /**
   * Comma-separated user ids (token subjects) of the platform admins who get operator notices
   * (ingest quarantine). Platform roles live in the identity provider's tokens, so the service
   * cannot list their holders itself.
   */
  PLATFORM_ADMIN_USER_IDS: v.optional(
    v.pipe(
      v.string(),
      v.transform((value) => [
        ...new Set(
          value
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ]),
    ),
    '',
  ),
  /**
   * Secret: the Application Insights connection string. Set: operations, queries, structured logs
   * and metrics go there through OpenTelemetry (docs/observability.md); unset: nothing is sent and
   * nothing of OpenTelemetry is loaded.
   */
  APPLICATIONINSIGHTS_CONNECTION_STRING: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((value) => value || undefined),
      v.optional(v.pipe(v.string(), v.regex(/(^|;)\s*InstrumentationKey=[^;]+/i, 'must be a connection string with InstrumentationKey='))),
    ),
  ),
});

export type Settings = v.InferOutput<typeof SettingsSchema>;

/** The names of every setting the code reads. */
export const settingNames = Object.keys(SettingsSchema.entries) as (keyof Settings)[];

export class SettingsError extends Error {
  constructor(readonly problems: SettingProblem[]) {
    super(`Invalid app settings: ${problems.map((p) => `${p.setting} ${p.message}`).join('; ')}`);
    this.name = 'SettingsError';
  }
}

/** Parses settings from an environment map; throws a SettingsError naming each bad setting. */
export function parseSettings(env: Record<string, string | undefined>): Settings {
  const reading = readEnvSettings(SettingsSchema, settingNames, env);
  if (!reading.ok) throw new SettingsError(reading.problems);
  const settings = reading.value;
  if (!settings.AUTH_JWKS_URL && !settings.AUTH_JWT_SECRET) {
    throw new SettingsError([{ setting: 'AUTH_JWT_SECRET', message: 'is required when AUTH_JWKS_URL is not set' }]);
  }
  if (!settings.AUTH_JWKS_URL && settings.AUTH_JWT_SECRET && settings.AUTH_JWT_SECRET.length < 32) {
    throw new SettingsError([{ setting: 'AUTH_JWT_SECRET', message: 'must be at least 32 characters' }]);
  }
  if (settings.AUTH_OIDC_AUTHORITY && !settings.AUTH_PORTAL_CLIENT_ID && !settings.AUTH_APP_CLIENT_ID) {
    throw new SettingsError([
      { setting: 'AUTH_PORTAL_CLIENT_ID', message: 'or AUTH_APP_CLIENT_ID is required when AUTH_OIDC_AUTHORITY is set' },
    ]);
  }
  const baseUrlProblem = publicBaseUrlProblem(settings);
  if (baseUrlProblem) throw new SettingsError([{ setting: 'NOTIFY_PUBLIC_BASE_URL', message: baseUrlProblem }]);
  return settings;
}

/**
 * Every email carries one-click unsubscribe links (RFC 8058) under NOTIFY_PUBLIC_BASE_URL, so with
 * email on the app refuses to start without a base URL a member's mail client can reach: https,
 * or plain http on this machine only (local development, where `npm start` sets it from PORT).
 */
function publicBaseUrlProblem(settings: Settings): string | undefined {
  const emailOn = settings.NOTIFY_EMAIL_SENDER_ADDRESS && (settings.NOTIFY_EMAIL_CONNECTION || settings.NOTIFY_EMAIL_ENDPOINT);
  if (!emailOn) return undefined;
  const base = settings.NOTIFY_PUBLIC_BASE_URL;
  if (!base) return 'is required when email is configured (the public https address of this service, for the unsubscribe links)';
  const { protocol, hostname } = new URL(base);
  if (protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOSTS.has(hostname))) return undefined;
  return 'must be an https URL when email is configured (plain http only for 127.0.0.1 or localhost)';
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** What every runner of the ingest apply core reads: admission thresholds and retention (shared/ingest/eventRunner.ts). */
export const INGEST_APPLY_SETTING_NAMES = [
  'INGEST_REJECTING_THRESHOLD',
  'INGEST_QUARANTINE_THRESHOLD',
  'INGEST_REJECT_WINDOW_SECONDS',
  'INGEST_DRIFT_QUIET_SECONDS',
  'INGEST_REJECT_LOG_MAX',
  'INGEST_REJECT_LOG_MAX_AGE_DAYS',
  'INGEST_DEAD_LETTER_MAX',
  'INGEST_DEAD_LETTER_MAX_AGE_DAYS',
] as const satisfies readonly (keyof Settings)[];

/** The settings of the Event Hubs connection: a connection string, or the identity-based form. */
export const EVENT_HUB_CONNECTION_SETTING_NAMES = [
  'INGEST_EVENTHUB_CONNECTION',
  'INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace',
  'INGEST_EVENTHUB_CONNECTION__credential',
  'INGEST_EVENTHUB_CONNECTION__clientId',
] as const satisfies readonly (keyof Settings)[];

/**
 * The settings of the staging ingest worker (workers/ingest): no HTTP, so none of the app's auth
 * settings; parsed from an environment map with the same rules and defaults as the app's.
 */
export const INGEST_WORKER_SETTING_NAMES = [
  'DATABASE_URL',
  'DATABASE_POOL_MAX',
  'AzureWebJobsStorage',
  'AzureWebJobsStorage__accountName',
  'AzureWebJobsStorage__tableServiceUri',
  'AzureWebJobsStorage__credential',
  'AzureWebJobsStorage__clientId',
  'LOG_LEVEL',
  'INGEST_EVENTHUB_NAME',
  ...EVENT_HUB_CONNECTION_SETTING_NAMES,
  'INGEST_EVENTHUB_CONSUMER_GROUP',
  ...INGEST_APPLY_SETTING_NAMES,
  'INGEST_CHECKPOINT_TABLE',
  'INGEST_WORKER_MAX_BATCH_SIZE',
  'INGEST_WORKER_LAG_SAMPLE_SECONDS',
  'INGEST_WORKER_LAG_WINDOW',
  'APPLICATIONINSIGHTS_CONNECTION_STRING',
] as const satisfies readonly (keyof Settings)[];

export type IngestWorkerSettings = Pick<Settings, (typeof INGEST_WORKER_SETTING_NAMES)[number]>;

const IngestWorkerSettingsSchema = v.pick(SettingsSchema, INGEST_WORKER_SETTING_NAMES);

export function parseIngestWorkerSettings(env: Record<string, string | undefined>): IngestWorkerSettings {
  const reading = readEnvSettings(IngestWorkerSettingsSchema, INGEST_WORKER_SETTING_NAMES, env);
  if (!reading.ok) throw new SettingsError(reading.problems);
  return reading.value;
}

/** The worker's settings from this process's environment. */
export function getIngestWorkerSettings(): IngestWorkerSettings {
  return parseIngestWorkerSettings(settingsEnvironment());
}

/**
 * Some of the app's settings, with the same rules and defaults: for a production command that
 * needs only these (ops/), so a setting it does not read can neither be required nor fail it.
 */
export function parseSomeSettings<K extends keyof Settings>(
  names: readonly K[],
  env: Record<string, string | undefined>,
): Pick<Settings, K> {
  const entries: v.ObjectEntries = Object.fromEntries(names.map((name) => [name, SettingsSchema.entries[name]]));
  const schema = v.object(entries);
  const reading = readEnvSettings(schema, names, env);
  if (!reading.ok) throw new SettingsError(reading.problems);
  // The same entries as SettingsSchema's, so the output is that part of Settings.
  return reading.value as Pick<Settings, K>;
}

let cached: Settings | undefined;

/** Values that replace the environment's, innermost last; see overrideSettings. */
const overrides: Record<string, string | undefined>[] = [];

function settingsEnvironment(): Record<string, string | undefined> {
  if (overrides.length === 0) return process.env;
  const environment: Record<string, string | undefined> = { ...process.env };
  for (const layer of overrides) Object.assign(environment, layer);
  return environment;
}

/**
 * One setting's text as the environment holds it (with overrideSettings in force), unparsed: for
 * the local host, which resolves `%NAME%` expressions and a trigger's connection by name as the
 * Functions host does.
 */
export function rawSetting(name: string): string | undefined {
  return settingsEnvironment()[name];
}

/** The settings of this process, parsed on first use (never at import time). */
export function getSettings(): Settings {
  cached ??= parseSettings(settingsEnvironment());
  return cached;
}

/**
 * For tests only: settings as if the environment held these values (`undefined` as if unset), read
 * with the same rules as the environment, without touching `process.env`. Answers the function
 * that removes them again; overrides nest, and restoring one leaves the others in place.
 */
export function overrideSettings(values: Partial<Record<keyof Settings, string | undefined>>): () => void {
  const layer = { ...values };
  overrides.push(layer);
  cached = undefined;
  return () => {
    const index = overrides.indexOf(layer);
    if (index >= 0) overrides.splice(index, 1);
    cached = undefined;
  };
}

/** For tests only: runs `fn` with overrideSettings(values) in force and removes them afterwards. */
export async function withSettings<T>(values: Partial<Record<keyof Settings, string | undefined>>, fn: () => Promise<T> | T): Promise<T> {
  const restore = overrideSettings(values);
  try {
    return await fn();
  } finally {
    restore();
  }
}

/**
 * LOG_LEVEL, or `info` while the settings cannot be parsed: loggers are made on paths that must
 * keep working to report exactly that problem.
 */
export function configuredLogLevel(): Settings['LOG_LEVEL'] {
  try {
    return getSettings().LOG_LEVEL;
  } catch {
    return 'info';
  }
}

/**
 * Sets variables that a library reads from the environment only and offers no option for (the
 * OpenTelemetry distro's switches), unless the environment names them already.
 */
export function defaultEnvironment(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) process.env[name] ??= value;
}

/**
 * Adds a resource attribute for the OpenTelemetry SDK, which reads them from
 * OTEL_RESOURCE_ATTRIBUTES in the environment; one of that name given there already wins.
 */
export function defaultResourceAttribute(name: string, value: string): void {
  const given = process.env['OTEL_RESOURCE_ATTRIBUTES'] ?? '';
  if (given.split(',').some((entry) => entry.split('=')[0]?.trim() === name)) return;
  const attribute = `${name}=${encodeURIComponent(value)}`;
  process.env['OTEL_RESOURCE_ATTRIBUTES'] = given.trim() ? `${given},${attribute}` : attribute;
}

/** Forgets the parsed settings, so the next getSettings() reads the environment again. */
export function resetSettings(): void {
  cached = undefined;
}
