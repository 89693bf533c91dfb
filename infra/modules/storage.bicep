// Storage account of the function app: host state (AzureWebJobsStorage as an identity-based
// connection, also used by the app's table client and the worker's checkpoint table) and the blob
// container the Flex Consumption app runs its package from. Shared keys are off: every reader uses
// its managed identity, so no connection string exists.
param location string
param tags object
@minLength(3)
@maxLength(24)
param name string
param functionPrincipalId string
@description('The staging ingest worker keeps its Event Hubs checkpoints in a table of this account, reached with its own identity; empty where no worker runs.')
param workerPrincipalId string = ''
@description('Who deploys: the shooters replay runs on the workflow runner and keeps its checkpoints here. Empty skips it.')
param deployerPrincipalId string = ''

var deploymentContainerName = 'app-package'
var storageBlobDataOwner = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b')
var storageQueueDataContributor = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '974c5e8b-45b9-4653-ba55-5f855dd0fb88')
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
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
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

// The function app's identity: the package and the host's blobs (leases, timers), the host's
// queues, and the tables of the app and the host (AzureWebJobsStorage__accountName).
var functionRoles = [storageBlobDataOwner, storageQueueDataContributor, storageTableDataContributor]

resource functionStorage 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for role in functionRoles: {
    name: guid(account.id, functionPrincipalId, role)
    scope: account
    properties: {
      roleDefinitionId: role
      principalId: functionPrincipalId
      principalType: 'ServicePrincipal'
    }
  }
]

// The worker reads and writes its checkpoint table (INGEST_CHECKPOINT_TABLE) with its identity.
resource workerCheckpoints 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(workerPrincipalId)) {
  name: guid(account.id, workerPrincipalId, storageTableDataContributor)
  scope: account
  properties: {
    roleDefinitionId: storageTableDataContributor
    principalId: workerPrincipalId
    principalType: 'ServicePrincipal'
  }
}

// No principalType: the deployer may be a workload identity or a person.
resource deployerCheckpoints 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(deployerPrincipalId)) {
  name: guid(account.id, deployerPrincipalId, storageTableDataContributor)
  scope: account
  properties: {
    roleDefinitionId: storageTableDataContributor
    principalId: deployerPrincipalId
  }
}

output accountName string = account.name
output deploymentContainerUrl string = '${account.properties.primaryEndpoints.blob}${deploymentContainerName}'
