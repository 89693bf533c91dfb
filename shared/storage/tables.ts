import { TableServiceClient } from '@azure/data-tables';
import { getSettings } from '../config/settings';

function connectionString(): string {
  const value = getSettings().AzureWebJobsStorage;
  if (!value) throw new Error('AzureWebJobsStorage is not set');
  return value;
}

// Azurite speaks plain HTTP on loopback; real storage accounts are always HTTPS.
const clientOptions = (connection: string) => ({
  allowInsecureConnection: /UseDevelopmentStorage=true|https?:\/\/(127\.0\.0\.1|localhost)/i.test(connection),
});

/** The storage account of AzureWebJobsStorage (Azurite locally). */
export function tableService(): TableServiceClient {
  const connection = connectionString();
  return TableServiceClient.fromConnectionString(connection, clientOptions(connection));
}
