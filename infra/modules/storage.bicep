// Storage account of the function app: host state (AzureWebJobsStorage, also used by the app's
// table client, hence a connection string kept in Key Vault) and the blob container the Flex
// Consumption app runs its package from.
param location string
param tags object
@minLength(3)
@maxLength(24)
param name string
param keyVaultName string
param functionPrincipalId string
@description('The staging ingest worker keeps its Event Hubs checkpoints in a table of this account, reached with its own identity; empty where no worker runs.')
param workerPrincipalId string = ''

var deploymentContainerName = 'app-package'
var storageBlobDataOwner = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b')
var storageTableDataContributor = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3')

resource account 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: name
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: { name: 'Standard_LRS' }
  properties: {
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    allowBlobPublicAccess: false
    // The app's table client and the host connect with the connection string.
    allowSharedKeyAccess: true
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: account
  name: 'default'
}

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: deploymentContainerName
  properties: { publicAccess: 'None' }
}

// The platform reads the package from the container with the app's identity.
resource packageReader 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(account.id, functionPrincipalId, storageBlobDataOwner)
  scope: account
  properties: {
    roleDefinitionId: storageBlobDataOwner
    principalId: functionPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// The worker reads and writes its checkpoint table (INGEST_CHECKPOINT_TABLE) with its identity:
// no connection string in its container.
resource workerCheckpoints 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(workerPrincipalId)) {
  name: guid(account.id, workerPrincipalId, storageTableDataContributor)
  scope: account
  properties: {
    roleDefinitionId: storageTableDataContributor
    principalId: workerPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource connectionSecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'storage-connection'
  properties: {
    value: 'DefaultEndpointsProtocol=https;AccountName=${account.name};AccountKey=${account.listKeys().keys[0].value};EndpointSuffix=${environment().suffixes.storage}'
    contentType: 'AzureWebJobsStorage connection string'
  }
}

output accountName string = account.name
output deploymentContainerUrl string = '${account.properties.primaryEndpoints.blob}${deploymentContainerName}'
