// The dedicated ingest worker of staging as a Container App with a fixed number of replicas
// (STAGING_INGEST_REPLICAS): several replicas share one consumer group, so they split the
// partitions instead of reading twice. It reaches everything with its user-assigned identity:
// the image in the registry (AcrPull), the database URL in Key Vault, the hub (Event Hubs Data
// Receiver) and its checkpoint table (Storage Table Data Contributor). No key in the container.
param location string
param tags object
param managedEnvironmentName string
param name string
@description('Image of the worker. Empty: a placeholder until the first image is pushed (the Deploy Staging workflow or `azd deploy ingest-worker` sets the real one).')
param image string
@minValue(1)
@maxValue(8)
param replicas int
param identityId string
@description('Client id of that identity: the worker asks for its tokens as it.')
param identityClientId string
@description('Login server of the registry the image comes from (registry.bicep).')
param registryServer string
@description('Storage account of the checkpoint table.')
param storageAccountName string
param workspaceName string
param keyVaultUri string
@description('`<namespace>.servicebus.windows.net` of the hub.')
param eventHubsNamespaceHost string
param eventHubName string
param consumerGroup string
@secure()
@description('Application Insights connection string, for the batch spans, lag and catch-up gauges of the worker (docs/observability.md).')
param appInsightsConnectionString string

// The quickstart image azd templates use before a service's first deploy.
var placeholderImage = 'mcr.microsoft.com/k8se/quickstart:latest'

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
  // azd finds the app of the `ingest-worker` service (azure.yaml) by this tag.
  tags: union(tags, { 'azd-service-name': 'ingest-worker' })
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    managedEnvironmentId: managedEnvironment.id
    configuration: {
      activeRevisionsMode: 'Single'
      registries: [{ server: registryServer, identity: identityId }]
      secrets: [
        { name: 'database-url', keyVaultUrl: '${keyVaultUri}secrets/database-url', identity: identityId }
        { name: 'appinsights-connection', value: appInsightsConnectionString }
      ]
    }
    template: {
      containers: [
        {
          name: 'ingest-worker'
          image: empty(image) ? placeholderImage : image
          resources: { cpu: json('0.5'), memory: '1Gi' }
          env: [
            { name: 'DATABASE_URL', secretRef: 'database-url' }
            { name: 'INGEST_EVENTHUB_CONNECTION__fullyQualifiedNamespace', value: eventHubsNamespaceHost }
            { name: 'INGEST_EVENTHUB_CONNECTION__credential', value: 'managedidentity' }
            { name: 'INGEST_EVENTHUB_CONNECTION__clientId', value: identityClientId }
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
