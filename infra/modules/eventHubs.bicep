// Event Hubs namespace with the hub `club-data` that carries the clubs' data changes. One consumer
// group per reader: the production-style function trigger and the dedicated staging ingest worker
// keep separate checkpoints. Readers connect with their managed identity (Azure Event Hubs Data
// Receiver on the hub): no shared access key exists in any app setting or secret.
param location string
param tags object
param namespaceName string
@description('Managed identities that read the hub: the function app and the staging worker.')
param readerPrincipalIds array
@description('Who deploys: the shooters replay runs on the workflow runner with its login. Empty skips it.')
param deployerPrincipalId string = ''

var hubName = 'club-data'
// The backfill's stable group (INGEST_BACKFILL_CONSUMER_GROUP) is provisioned too: a consumer group must exist on the hub before anyone reads with it.
var consumerGroupNames = ['function', 'staging-worker', 'shooting-club-shooter-backfill']
var eventHubsDataReceiver = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'a638d3c7-ab3a-418d-83e6-5f17a39d4fde')

// Standard: consumer groups beyond $Default need it. Local (SAS) authentication is off: Entra ID only.
resource namespace 'Microsoft.EventHub/namespaces@2024-01-01' = {
  name: namespaceName
  location: location
  tags: tags
  sku: {
    name: 'Standard'
    tier: 'Standard'
    capacity: 1
  }
  properties: {
    minimumTlsVersion: '1.2'
    disableLocalAuth: true
  }
}

resource hub 'Microsoft.EventHub/namespaces/eventhubs@2024-01-01' = {
  parent: namespace
  name: hubName
  properties: {
    partitionCount: 4
    messageRetentionInDays: 7
  }
}

resource consumerGroups 'Microsoft.EventHub/namespaces/eventhubs/consumergroups@2024-01-01' = [
  for name in consumerGroupNames: {
    parent: hub
    name: name
    properties: {}
  }
]

resource receivers 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for principalId in readerPrincipalIds: {
    name: guid(hub.id, principalId, eventHubsDataReceiver)
    scope: hub
    properties: {
      roleDefinitionId: eventHubsDataReceiver
      principalId: principalId
      principalType: 'ServicePrincipal'
    }
  }
]

// No principalType: the deployer may be a workload identity or a person.
resource deployerReceiver 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(deployerPrincipalId)) {
  name: guid(hub.id, deployerPrincipalId, eventHubsDataReceiver)
  scope: hub
  properties: {
    roleDefinitionId: eventHubsDataReceiver
    principalId: deployerPrincipalId
  }
}

output hubName string = hub.name
// `<namespace>.servicebus.windows.net`: INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace.
output namespaceHost string = replace(split(namespace.properties.serviceBusEndpoint, '/')[2], ':443', '')
output functionConsumerGroup string = consumerGroups[0].name
output workerConsumerGroup string = consumerGroups[1].name
