import type { TokenCredential } from '@azure/identity';
import { TableClient, TableServiceClient } from '@azure/data-tables';
import { getSettings, type Settings } from '../config/settings';
import { StorageNotConfiguredError } from './notConfigured';

export { StorageNotConfiguredError } from './notConfigured';

/**
 * How the app reaches its storage account, in the two forms the Functions host accepts for
 * AzureWebJobsStorage: a connection string (Azurite locally), or an identity-based connection
 * (`AzureWebJobsStorage__accountName` or `__tableServiceUri`, optionally `__credential` and
 * `__clientId`) that carries no secret. A connection string wins when both are set, as it does
 * for the host.
 */
export type StorageConnection = HostConnection<{ tableServiceUri: string }>;

type StorageSettings = HostConnectionSettings<'AzureWebJobsStorage', 'accountName' | 'tableServiceUri'>;

/** The storage connection the settings describe; undefined when they describe none. */
export function storageConnection(settings: StorageSettings): StorageConnection | undefined {
  const account = settings.AzureWebJobsStorage__accountName;
  const tableServiceUri =
    settings.AzureWebJobsStorage__tableServiceUri ?? (account ? `https://${account}.table.core.windows.net` : undefined);
  return hostConnection(settings.AzureWebJobsStorage, tableServiceUri ? { tableServiceUri } : undefined, {
    credential: settings.AzureWebJobsStorage__credential,
    clientId: settings.AzureWebJobsStorage__clientId,
  });
}

/** Which identity an identity-based connection (`…__credential`, `…__clientId`) uses. */
export interface IdentityChoice {
  credential: 'managedidentity' | 'default';
  clientId?: string;
}

/**
 * A connection in the two forms the Functions host accepts for a binding's connection setting:
 * a connection string, or an identity-based connection to `target` that carries no secret.
 */
export type HostConnection<Target> =
  { kind: 'connectionString'; connectionString: string } | ({ kind: 'identity' } & Target & IdentityChoice);

/** The settings of one host connection `Name`: the connection string, and `Name__<part>` for the identity's target and choice. */
export type HostConnectionSettings<Name extends keyof Settings, TargetPart extends string> = Pick<
  Settings,
  Name | Extract<`${Name & string}__${TargetPart | 'credential' | 'clientId'}`, keyof Settings>
>;

/** The connection the settings describe, as the host reads them: a connection string wins; undefined when they describe none. */
export function hostConnection<Target extends object>(
  connectionString: string | undefined,
  target: Target | undefined,
  identity: { credential: IdentityChoice['credential'] | undefined; clientId: string | undefined },
): HostConnection<Target> | undefined {
  if (connectionString) return { kind: 'connectionString', connectionString };
  if (!target) return undefined;
  return {
    kind: 'identity',
    ...target,
    credential: identity.credential ?? 'default',
    ...(identity.clientId ? { clientId: identity.clientId } : {}),
  };
}

/**
 * The identity credential, loaded on its first token request: @azure/identity (and MSAL below it)
 * is large, and a cold start with a connection string (Azurite, or most deployments) must not pay
 * for it. `managedidentity` asks the platform's identity endpoint only (IDENTITY_ENDPOINT on App
 * Service and Container Apps); `default` walks DefaultAzureCredential's chain (the Azure CLI login
 * of a workflow or an operator).
 */
export function identityCredential(connection: IdentityChoice): TokenCredential {
  let loaded: Promise<TokenCredential> | undefined;
  const load = async (): Promise<TokenCredential> => {
    const { DefaultAzureCredential, ManagedIdentityCredential } = await import('./identity');
    if (connection.credential === 'managedidentity') {
      return connection.clientId ? new ManagedIdentityCredential({ clientId: connection.clientId }) : new ManagedIdentityCredential();
    }
    return new DefaultAzureCredential(connection.clientId ? { managedIdentityClientId: connection.clientId } : {});
  };
  return {
    async getToken(scopes, options) {
      loaded ??= load();
      return (await loaded).getToken(scopes, options);
    },
  };
}

/** A Table service client for the connection; nothing is contacted until the first call. */
export function createTableService(connection: StorageConnection): TableServiceClient {
  if (connection.kind === 'identity') return new TableServiceClient(connection.tableServiceUri, identityCredential(connection));
  const { connectionString } = connection;
  // Azurite speaks plain HTTP on loopback; real storage accounts are always HTTPS.
  const allowInsecureConnection = /UseDevelopmentStorage=true|https?:\/\/(127\.0\.0\.1|localhost)/i.test(connectionString);
  return TableServiceClient.fromConnectionString(connectionString, { allowInsecureConnection });
}

/** A client of one table on the connection (the ingest checkpoint store); nothing is contacted until the first call. */
export function createTableClient(connection: StorageConnection, tableName: string): TableClient {
  if (connection.kind === 'identity') return new TableClient(connection.tableServiceUri, tableName, identityCredential(connection));
  const { connectionString } = connection;
  const allowInsecureConnection = /UseDevelopmentStorage=true|https?:\/\/(127\.0\.0\.1|localhost)/i.test(connectionString);
  return TableClient.fromConnectionString(connectionString, tableName, { allowInsecureConnection });
}

// This module's copy of the Azure tracing core (dist/tablesSdk.js has its own), handed the
// OpenTelemetry instrumenter when telemetry runs (shared/telemetry/telemetry.ts registerAzureSdk).
export { useInstrumenter } from '@azure/core-tracing';

let shared: TableServiceClient | undefined;

/** The one Table service client of this process (its HTTP pipeline and credential are reused). */
export function tableService(): TableServiceClient {
  if (!shared) {
    const connection = storageConnection(getSettings());
    if (!connection) throw new StorageNotConfiguredError();
    shared = createTableService(connection);
  }
  return shared;
}

/** Forgets the client, so the next tableService() reads the settings again (tests). */
export function resetTableService(): void {
  shared = undefined;
}
