// Event Hubs namespace with the hub `club-data` that carries the clubs' data changes. One consumer
// group per reader: the production-style function trigger and the dedicated staging ingest worker
// keep separate checkpoints. Each reader gets its own Listen-only connection string in Key Vault.
param location string
param tags object
param namespaceName string
param keyVaultName string

var hubName = 'club-data'
var readers = [
  { consumerGroup: 'function', secretName: 'eventhub-function-connection' }
  { consumerGroup: 'staging-worker', secretName: 'eventhub-worker-connection' }
]

// Standard: consumer groups beyond $Default need it.
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
  for reader in readers: {
    parent: hub
    name: reader.consumerGroup
    properties: {}
  }
]

resource listenRules 'Microsoft.EventHub/namespaces/eventhubs/authorizationRules@2024-01-01' = [
  for reader in readers: {
    parent: hub
    name: 'listen-${reader.consumerGroup}'
    properties: { rights: ['Listen'] }
  }
]

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource connectionSecrets 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = [
  for (reader, i) in readers: {
    parent: vault
    name: reader.secretName
    properties: {
      value: listenRules[i].listKeys().primaryConnectionString
      contentType: 'Event Hubs Listen connection string (${reader.consumerGroup})'
    }
  }
]

output hubName string = hub.name
output functionConsumerGroup string = consumerGroups[0].name
output workerConsumerGroup string = consumerGroups[1].name
