// The dedicated ingest worker of staging as a Container App with a fixed number of replicas
// (STAGING_INGEST_REPLICAS): several replicas share one consumer group, so they split the
// partitions instead of reading twice. Secrets come from Key Vault through the worker's identity;
// its checkpoint table it reaches with that identity too (no storage key in the container).
param location string
param tags object
param managedEnvironmentName string
param name string
@minLength(1)
param image string
@minValue(1)
@maxValue(8)
param replicas int
param identityId string
@description('Client id of that identity: the worker asks for tokens as it (storage).')
param identityClientId string
@description('Storage account of the checkpoint table; the worker reaches it with its identity (Storage Table Data Contributor, storage.bicep).')
param storageAccountName string
param workspaceName string
param keyVaultUri string
param eventHubName string
param consumerGroup string
@secure()
@description('Application Insights connection string, for the batch spans, lag and catch-up gauges of the worker (docs/observability.md).')
param appInsightsConnectionString string

resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' existing = {
  name: workspaceName
}

resource managedEnvironment 'Microsoft.App/managedEnvironments@2024-03-01' = {
  name: managedEnvironmentName
  location: location
  tags: tags
  properties: {
    appLogsConfiguration: {
      destination: 'log-analytics'
      logAnalyticsConfiguration: {
        customerId: workspace.properties.customerId
        sharedKey: workspace.listKeys().primarySharedKey
      }
    }
  }
}

resource worker 'Microsoft.App/containerApps@2024-03-01' = {
  name: name
  location: location
  tags: tags
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    managedEnvironmentId: managedEnvironment.id
    configuration: {
      activeRevisionsMode: 'Single'
      secrets: [
        { name: 'database-url', keyVaultUrl: '${keyVaultUri}secrets/database-url', identity: identityId }
        { name: 'eventhub-connection', keyVaultUrl: '${keyVaultUri}secrets/eventhub-worker-connection', identity: identityId }
        { name: 'appinsights-connection', value: appInsightsConnectionString }
      ]
    }
    template: {
      containers: [
        {
          name: 'ingest-worker'
          image: image
          resources: { cpu: json('0.5'), memory: '1Gi' }
          env: [
            { name: 'DATABASE_URL', secretRef: 'database-url' }
            { name: 'INGEST_EVENTHUB_CONNECTION', secretRef: 'eventhub-connection' }
            { name: 'INGEST_EVENTHUB_NAME', value: eventHubName }
            { name: 'INGEST_EVENTHUB_CONSUMER_GROUP', value: consumerGroup }
            { name: 'AzureWebJobsStorage__accountName', value: storageAccountName }
            { name: 'AzureWebJobsStorage__credential', value: 'managedidentity' }
            { name: 'AzureWebJobsStorage__clientId', value: identityClientId }
            { name: 'INGEST_CHECKPOINT_TABLE', value: 'IngestCheckpoints' }
            { name: 'LOG_LEVEL', value: 'info' }
            { name: 'APPLICATIONINSIGHTS_CONNECTION_STRING', secretRef: 'appinsights-connection' }
          ]
        }
      ]
      scale: {
        minReplicas: replicas
        maxReplicas: replicas
      }
    }
  }
}

output name string = worker.name
