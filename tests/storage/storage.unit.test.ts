import { parseSettings, SettingsError } from '../../shared/config/settings';
import { createTableService, storageConnection } from '../../shared/storage/tables';

const base = { AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_ISSUER: 'local-dev', AUTH_AUDIENCE: 'api' };
const connectionOf = (env: Record<string, string>) => storageConnection(parseSettings({ ...base, ...env }));

describe('storage connection forms', () => {
  it('uses the connection string when AzureWebJobsStorage holds one, even next to identity settings', () => {
    expect(connectionOf({ AzureWebJobsStorage: 'UseDevelopmentStorage=true', AzureWebJobsStorage__accountName: 'prodaccount' })).toEqual({
      kind: 'connectionString',
      connectionString: 'UseDevelopmentStorage=true',
    });
  });

  it('uses the identity form for AzureWebJobsStorage__accountName, with the default credential chain', () => {
    expect(connectionOf({ AzureWebJobsStorage__accountName: 'prodaccount' })).toEqual({
      kind: 'identity',
      tableServiceUri: 'https://prodaccount.table.core.windows.net',
      credential: 'default',
    });
  });

  it('prefers an explicit __tableServiceUri and passes __credential and __clientId on', () => {
    expect(
      connectionOf({
        AzureWebJobsStorage: '',
        AzureWebJobsStorage__accountName: 'ignored',
        AzureWebJobsStorage__tableServiceUri: 'https://sovereign.table.core.example.net',
        AzureWebJobsStorage__credential: 'ManagedIdentity',
        AzureWebJobsStorage__clientId: '00000000-0000-0000-0000-000000000001',
      }),
    ).toEqual({
      kind: 'identity',
      tableServiceUri: 'https://sovereign.table.core.example.net',
      credential: 'managedidentity',
      clientId: '00000000-0000-0000-0000-000000000001',
    });
  });

  it('describes no connection when neither form is set (the health check then reports storage down)', () => {
    expect(connectionOf({ AzureWebJobsStorage: '', AzureWebJobsStorage__accountName: '' })).toBeUndefined();
  });

  it('names a credential setting it does not understand', () => {
    expect(() => parseSettings({ ...base, AzureWebJobsStorage__credential: 'password' })).toThrow(SettingsError);
    expect(() => parseSettings({ ...base, AzureWebJobsStorage__credential: 'password' })).toThrow(/AzureWebJobsStorage__credential/);
  });

  it('builds a client for either form without contacting anything', () => {
    const identity = createTableService({
      kind: 'identity',
      tableServiceUri: 'https://prodaccount.table.core.windows.net',
      credential: 'default',
    });
    expect(identity.url).toBe('https://prodaccount.table.core.windows.net');
    const local = createTableService({
      kind: 'connectionString',
      connectionString:
        'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;',
    });
    expect(local.url).toBe('http://127.0.0.1:10002/devstoreaccount1');
  });
});
