// One environment (staging or production) of the shooting-club backend. Deployed at subscription
// scope because the budget and the cost reader's role assignment live on the subscription; all
// other resources go into the environment's resource group.
targetScope = 'subscription'

@allowed(['staging', 'production'])
param environmentName string

@description('Azure region of every resource; must offer Flex Consumption.')
param location string

@description('Short prefix of resource names (lowercase letters and digits).')
@minLength(2)
@maxLength(8)
param namePrefix string = 'scb'

// The Node.js major of the function app: the one pin in .nvmrc (tests and CI run the same version).
// Flex Consumption lists what a region offers with `az functionapp list-flexconsumption-runtimes`.
var nodeVersion = split(trim(loadTextContent('../.nvmrc')), '.')[0]

@description('Upper bound of Flex Consumption instances (40 is the lowest the plan accepts). Instances x DATABASE_POOL_MAX must stay below the PostgreSQL SKU\'s max_connections: 40 x 5 = 200 < 429 on Standard_B2s.')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 40


@description('SVC_INGEST_STATUS_ENABLED as deployed. The production workflow passes the value the running app has, and switches it on only after its rollout check (docs/operations.md).')
param ingestStatusEnabled bool = false

// PostgreSQL
param postgresAdminLogin string = 'scbadmin'
@secure()
@description('Administrator password of the PostgreSQL server; only used to build the DATABASE_URL secret.')
param postgresAdminPassword string
param postgresSkuName string = 'Standard_B2s'
param postgresSkuTier string = 'Burstable'
param postgresStorageSizeGB int = 32
param databaseName string = 'shooting_club'

// Dedicated ingest worker (staging). STAGING_INGEST_ENABLED / STAGING_INGEST_REPLICAS arrive here
// through `node dist/ops.js ingest:worker-plan` (true: declared; false: the workflow deletes it
// after the deployment; unset: not declared and not deleted, so a running worker stays as it is).
@description('Whether this deployment declares the ingest worker container app (the plan\'s action is start).')
param ingestWorkerEnabled bool = false
@minValue(1)
@maxValue(8)
@description('STAGING_INGEST_REPLICAS: instances of the ingest worker; start with 1.')
param ingestWorkerReplicas int = 1
@description('Container image of the ingest worker (<registry>/ingest-worker:<sha>): the one running, which the workflow reads before it deploys; empty runs a placeholder until the first image is pushed.')
param ingestWorkerImage string = ''

// Cost reader (service principal of the cost dashboard) and budget: subscription-wide, so only the
// environment that owns the subscription's cost view deploys them.
@description('Object id of the cost reader service principal (Enterprise application), not its client id. Empty skips the role assignment.')
param costReaderPrincipalId string = ''
// The four cost settings are the spec's deployment variables and secret (INTERNAL_CLOUD_COST_*):
// any one left empty leaves its app setting out, and the cost status says `configured: false`.
// The subscription queried may differ from the one deployed to.
@description('INTERNAL_CLOUD_COST_TENANT_ID: tenant of the cost reader. Empty leaves the setting out.')
param costTenantId string = ''
@description('INTERNAL_CLOUD_COST_CLIENT_ID: application (client) id of the cost reader. Empty leaves the setting out.')
param costClientId string = ''
@description('INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: the one subscription queried. Empty leaves the setting out.')
param costSubscriptionId string = ''
@secure()
@description('INTERNAL_CLOUD_COST_CLIENT_SECRET: client secret of the cost reader, stored in Key Vault and referenced from the app setting. Empty leaves the setting out (rotation: docs/operations.md).')
param costClientSecret string = ''
@description('Expiry of that client secret (ISO 8601, 24 months after creation); stored on the Key Vault secret.')
param costCredentialExpiresOn string = ''

@secure()
@description('PAGING_CURSOR_KEY: signs list cursors (at least 32 characters, e.g. openssl rand -base64 48). Empty keeps the key already in Key Vault.')
param pagingCursorKey string = ''

// Push (docs/notifications.md#push). The notification hub with its APNs and FCM v1 credentials is
// created where the app stores' credentials live; the app only needs its connection string.
@secure()
@description('NOTIFY_PUSH_HUB_CONNECTION: Notification Hubs connection string (Send and Manage), stored in Key Vault. Empty leaves the setting out.')
param notifyPushHubConnection string = ''
@description('NOTIFY_PUSH_HUB_NAME: the notification hub within that namespace. Empty leaves the setting out.')
param notifyPushHubName string = ''
@description('NOTIFY_WEBPUSH_PUBLIC_KEY: VAPID public key (base64url) browsers subscribe with. Empty leaves the setting out.')
param notifyWebPushPublicKey string = ''
@secure()
@description('NOTIFY_WEBPUSH_PRIVATE_KEY: the matching VAPID private key, stored in Key Vault. Empty leaves the setting out.')
param notifyWebPushPrivateKey string = ''
@description('NOTIFY_WEBPUSH_SUBJECT: mailto: or https: contact for the push services. Empty leaves the setting out.')
param notifyWebPushSubject string = ''

param deployBudget bool = false
@description('Monthly budget of the subscription in its currency (EUR).')
param budgetAmount int = 100
@description('First day of the budget\'s first month (YYYY-MM-01). Keep it fixed once the budget exists.')
param budgetStartDate string = ''
@description('Recipients of the budget alerts (50/75/90 % actual, 100 % forecast).')
param budgetContactEmails array = []

@description('Email addresses of the operators the alerts go to (ingest down, club stale, 5xx rate); empty: no notification.')
param alertContactEmails array = []

@description('Object id of whoever deploys; it may read database-url to run migrations.')
param deployerPrincipalId string = deployer().objectId

var tags = { app: 'shooting-club', environment: environmentName }
// Values of the app settings marked `env:` in app-settings.json.
var environmentSettings = environmentName == 'production' ? loadJsonContent('env/production.settings.json') : loadJsonContent('env/staging.settings.json')
// The dedicated ingest worker is a staging tool; on production the function ingests.
var stagingWorker = environmentName == 'staging'
var token = take(uniqueString(subscription().id, environmentName, location), 6)
var baseName = '${namePrefix}-${environmentName}'
var compactName = toLower('${namePrefix}${take(environmentName, 4)}${token}')

resource rg 'Microsoft.Resources/resourceGroups@2024-03-01' = {
  name: 'rg-${baseName}'
  location: location
  tags: tags
}

module monitoring 'modules/monitoring.bicep' = {
  scope: rg
  name: 'monitoring'
  params: {
    location: location
    tags: tags
    workspaceName: 'log-${baseName}'
    appInsightsName: 'appi-${baseName}'
  }
}

// The three alerts an operator needs first, on the Application Insights component (docs/observability.md).
module alerts 'modules/alerts.bicep' = {
  scope: rg
  name: 'alerts'
  params: {
    location: location
    tags: tags
    appInsightsId: monitoring.outputs.appInsightsId
    namePrefix: baseName
    contactEmails: alertContactEmails
  }
}

module keyVault 'modules/keyVault.bicep' = {
  scope: rg
  name: 'keyVault'
  params: {
    location: location
    tags: tags
    name: 'kv-${compactName}'
    costClientSecret: costClientSecret
    pagingCursorKey: pagingCursorKey
    costCredentialExpiresOn: costCredentialExpiresOn
    pushHubConnection: notifyPushHubConnection
    webPushPrivateKey: notifyWebPushPrivateKey
  }
}

module identities 'modules/identities.bicep' = {
  scope: rg
  name: 'identities'
  params: {
    location: location
    tags: tags
    functionIdentityName: 'id-func-${baseName}'
    workerIdentityName: 'id-ingest-${baseName}'
  }
}

module storage 'modules/storage.bicep' = {
  scope: rg
  name: 'storage'
  params: {
    location: location
    tags: tags
    name: 'st${compactName}'
    functionPrincipalId: identities.outputs.functionPrincipalId
    workerPrincipalId: stagingWorker ? identities.outputs.workerPrincipalId : ''
    deployerPrincipalId: deployerPrincipalId
  }
}

module postgres 'modules/postgres.bicep' = {
  scope: rg
  name: 'postgres'
  params: {
    location: location
    tags: tags
    name: 'psql-${baseName}-${token}'
    administratorLogin: postgresAdminLogin
    administratorPassword: postgresAdminPassword
    skuName: postgresSkuName
    skuTier: postgresSkuTier
    storageSizeGB: postgresStorageSizeGB
    databaseName: databaseName
    keyVaultName: keyVault.outputs.name
  }
}

module eventHubs 'modules/eventHubs.bicep' = {
  scope: rg
  name: 'eventHubs'
  params: {
    location: location
    tags: tags
    namespaceName: 'evhns-${baseName}-${token}'
    readerPrincipalIds: stagingWorker
      ? [identities.outputs.functionPrincipalId, identities.outputs.workerPrincipalId]
      : [identities.outputs.functionPrincipalId]
    deployerPrincipalId: deployerPrincipalId
  }
}

module registry 'modules/registry.bicep' = if (stagingWorker) {
  scope: rg
  name: 'registry'
  params: {
    location: location
    tags: tags
    name: 'cr${compactName}'
    workerPrincipalId: identities.outputs.workerPrincipalId
    deployerPrincipalId: deployerPrincipalId
  }
}

module secretAccess 'modules/keyVaultAccess.bicep' = {
  scope: rg
  name: 'keyVaultAccess'
  params: {
    keyVaultName: keyVault.outputs.name
    principalIds: [identities.outputs.functionPrincipalId, identities.outputs.workerPrincipalId]
    deployerPrincipalId: deployerPrincipalId
  }
}

// Values produced by this deployment that app-settings.json refers to as `resource:<key>`.
var resourceSettingValues = {
  appInsightsConnectionString: monitoring.outputs.connectionString
  ingestStatusEnabled: string(ingestStatusEnabled)
  eventHubName: eventHubs.outputs.hubName
  functionConsumerGroup: eventHubs.outputs.functionConsumerGroup
  eventHubsNamespaceHost: eventHubs.outputs.namespaceHost
  storageAccountName: storage.outputs.accountName
  functionIdentityClientId: identities.outputs.functionClientId
  // The cost chart's budget line is the amount the budget alerts watch.
  costsMonthlyBudget: string(budgetAmount)
}

// Values of the deployment variables and secrets that app-settings.json names as `deploy:<name>`;
// an empty one leaves its app setting out.
var deploymentSettingValues = {
  INTERNAL_CLOUD_COST_TENANT_ID: costTenantId
  INTERNAL_CLOUD_COST_CLIENT_ID: costClientId
  INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: costSubscriptionId
  INTERNAL_CLOUD_COST_CLIENT_SECRET: empty(costClientSecret) ? '' : '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=cost-client-secret)'
  NOTIFY_PUSH_HUB_CONNECTION: empty(notifyPushHubConnection) ? '' : '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=notification-hub-connection)'
  NOTIFY_PUSH_HUB_NAME: notifyPushHubName
  NOTIFY_WEBPUSH_PUBLIC_KEY: notifyWebPushPublicKey
  NOTIFY_WEBPUSH_PRIVATE_KEY: empty(notifyWebPushPrivateKey) ? '' : '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=webpush-vapid-private-key)'
  NOTIFY_WEBPUSH_SUBJECT: notifyWebPushSubject
}

module functionApp 'modules/functionApp.bicep' = {
  scope: rg
  name: 'functionApp'
  dependsOn: [secretAccess, postgres]
  params: {
    location: location
    tags: tags
    planName: 'plan-${baseName}'
    name: 'func-${baseName}-${token}'
    nodeVersion: nodeVersion
    maximumInstanceCount: maximumInstanceCount
    identityId: identities.outputs.functionIdentityId
    deploymentContainerUrl: storage.outputs.deploymentContainerUrl
    keyVaultName: keyVault.outputs.name
    settingSources: loadJsonContent('app-settings.json')
    environmentSettings: environmentSettings
    resourceSettingValues: resourceSettingValues
    deploymentSettingValues: deploymentSettingValues
  }
}

module ingestWorker 'modules/ingestWorker.bicep' = if (stagingWorker && ingestWorkerEnabled) {
  scope: rg
  name: 'ingestWorker'
  dependsOn: [secretAccess, postgres]
  params: {
    location: location
    tags: tags
    managedEnvironmentName: 'cae-${baseName}'
    name: 'ca-ingest-${environmentName}'
    image: ingestWorkerImage
    replicas: ingestWorkerReplicas
    identityId: identities.outputs.workerIdentityId
    identityClientId: identities.outputs.workerClientId
    registryServer: registry!.outputs.loginServer
    storageAccountName: storage.outputs.accountName
    workspaceName: monitoring.outputs.workspaceName
    keyVaultUri: keyVault.outputs.uri
    eventHubsNamespaceHost: eventHubs.outputs.namespaceHost
    eventHubName: eventHubs.outputs.hubName
    consumerGroup: eventHubs.outputs.workerConsumerGroup
    appInsightsConnectionString: monitoring.outputs.connectionString
  }
}

module costReader 'modules/costReader.bicep' = if (!empty(costReaderPrincipalId)) {
  name: 'costReader'
  params: {
    principalId: costReaderPrincipalId
  }
}

module budget 'modules/budget.bicep' = if (deployBudget) {
  name: 'budget'
  params: {
    name: 'budget-${namePrefix}-subscription'
    amount: budgetAmount
    startDate: budgetStartDate
    contactEmails: budgetContactEmails
  }
}

output resourceGroupName string = rg.name
// azd looks for the services' resources (tag azd-service-name) in AZURE_RESOURCE_GROUP.
output AZURE_RESOURCE_GROUP string = rg.name
output functionAppName string = functionApp.outputs.name
output functionAppUrl string = functionApp.outputs.url
output keyVaultName string = keyVault.outputs.name
output postgresHost string = postgres.outputs.host
output ingestWorkerName string = stagingWorker ? 'ca-ingest-${environmentName}' : ''
output storageAccountName string = storage.outputs.accountName
output eventHubsNamespaceHost string = eventHubs.outputs.namespaceHost
output eventHubName string = eventHubs.outputs.hubName
// azd pushes the images of container app services to AZURE_CONTAINER_REGISTRY_ENDPOINT.
output AZURE_CONTAINER_REGISTRY_ENDPOINT string = stagingWorker ? registry!.outputs.loginServer : ''
