import { readFileSync } from 'node:fs';
import path from 'node:path';
import { infraSettings, root } from './settingsSources';

/**
 * Storage, Event Hubs and Key Vault are reached with the apps' managed identities: no connection
 * string, account key or shared access key exists anywhere infra writes, and every identity has
 * the data roles its settings need. (The contract test starts the processes with these settings
 * against endpoints that accept Entra tokens only.)
 */

const bicepModule = (name: string) => readFileSync(path.join(root, 'infra', 'modules', `${name}.bicep`), 'utf8');
const roles = {
  storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b',
  storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88',
  storageTableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3',
  eventHubsDataReceiver: 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde',
  keyVaultSecretsUser: '4633458b-17de-408a-b874-0445c86b69e6',
  acrPull: '7f951dda-4ed3-4680-a7ca-43fe172d538d',
};

describe('managed identities instead of keys', () => {
  it('gives the function app identity-based connections only', () => {
    const { app } = infraSettings();
    expect(app).not.toHaveProperty('AzureWebJobsStorage');
    expect(app).not.toHaveProperty('INGEST_EVENTHUB_CONNECTION');
    expect(app).toMatchObject({
      AzureWebJobsStorage__credential: 'managedidentity',
      AzureWebJobsStorage__clientId: 'resource:functionIdentityClientId',
      INGEST_EVENTHUB_CONNECTION__credential: 'managedidentity',
      INGEST_EVENTHUB_CONNECTION__clientId: 'resource:functionIdentityClientId',
    });
  });

  it('creates no key: no listKeys of storage or Event Hubs, shared keys and SAS switched off', () => {
    expect(bicepModule('storage')).not.toContain('listKeys(');
    expect(bicepModule('eventHubs')).not.toContain('listKeys(');
    expect(bicepModule('eventHubs')).not.toContain('authorizationRules');
    expect(bicepModule('storage')).toContain('allowSharedKeyAccess: false');
    expect(bicepModule('eventHubs')).toContain('disableLocalAuth: true');
  });

  it('grants the function identity the storage roles the host and the app need, and the hub', () => {
    for (const role of [roles.storageBlobDataOwner, roles.storageQueueDataContributor, roles.storageTableDataContributor]) {
      expect(bicepModule('storage')).toContain(`'${role}'`);
    }
    expect(bicepModule('storage')).toMatch(
      /var functionRoles = \[storageBlobDataOwner, storageQueueDataContributor, storageTableDataContributor\]/,
    );
    expect(bicepModule('eventHubs')).toContain(`'${roles.eventHubsDataReceiver}'`);
  });

  it("resolves Key Vault references and container secrets with the apps' identities, which may read secrets", () => {
    expect(bicepModule('functionApp')).toContain('keyVaultReferenceIdentity: identityId');
    expect(bicepModule('ingestWorker')).toMatch(/keyVaultUrl: '\$\{keyVaultUri\}secrets\/database-url', identity: identityId/);
    expect(bicepModule('keyVaultAccess')).toContain(`'${roles.keyVaultSecretsUser}'`);
  });

  it('pulls the worker image with the worker identity: no registry password', () => {
    expect(bicepModule('registry')).toContain('adminUserEnabled: false');
    expect(bicepModule('registry')).toContain(`'${roles.acrPull}'`);
    expect(bicepModule('ingestWorker')).not.toMatch(/passwordSecretRef|username:/);
  });
});
