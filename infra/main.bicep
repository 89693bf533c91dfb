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

// Sign-in (docs/decisions/010-sign-in.md): the environment's Entra ID tenant and the two app
// registrations, deployment variables as the cost settings are. Unset or the zero-GUID
// placeholder fails the deployment (the workflow and azd check it first: ops/signInSettings.ts).
@description('AUTH_TENANT_ID: the Entra ID tenant members and operators sign in with; AUTH_ISSUER, AUTH_JWKS_URL and AUTH_OIDC_AUTHORITY are built from it.')
param signInTenantId string
@description('AUTH_PORTAL_CLIENT_ID: application (client) id of the admin portal\'s registration.')
param signInPortalClientId string
@description('AUTH_APP_CLIENT_ID: application (client) id of the member app\'s registration.')
param signInAppClientId string

@secure()
@description('PAGING_CURSOR_KEY: signs list cursors (at least 32 characters, e.g. openssl rand -base64 48). Empty keeps the key already in Key Vault.')
param pagingCursorKey string = ''

// Email (modules/email.bicep): Communication Services with an Azure-managed sender domain, or a
// custom one once its DNS records are verified (docs/operations.md, "Email").
@description('Where Communication Services keeps the email data at rest.')
param emailDataLocation string = 'Europe'
@description('A custom sender domain (mail.example.org); empty: DoNotReply@<id>.azurecomm.net.')
param emailCustomDomain string = ''
@description('Set true once the custom domain\'s DNS records are verified; until then email goes out from the Azure-managed domain.')
param emailCustomDomainVerified bool = false
@description('The app\'s own host name (clubs.example.org) when it has a custom domain; empty: its azurewebsites.net host. NOTIFY_PUBLIC_BASE_URL is https://<this>.')
param publicHostName string = ''

// Push (docs/notifications.md#push): the hub is created here; the app stores' credentials are
// optional secure parameters (without them the platform has no registrations).
@allowed(['Free', 'Basic', 'Standard'])
param notificationHubSku string = 'Free'
param apnsKeyId string = ''
param apnsTeamId string = ''
param apnsBundleId string = ''
@secure()
@description('The APNs .p8 signing key (token authentication).')
param apnsToken string = ''
param apnsProduction bool = true
param fcmProjectId string = ''
param fcmClientEmail string = ''
@secure()
@description('The private key of the FCM v1 service account.')
param fcmPrivateKey string = ''
@description('NOTIFY_WEBPUSH_SUBJECT: mailto: or https: contact for the push services; empty: the public base URL.')
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

module email 'modules/email.bicep' = {
  scope: rg
  name: 'email'
  params: {
    tags: tags
    emailServiceName: 'ecs-${baseName}-${token}'
    communicationServiceName: 'acs-${baseName}-${token}'
    dataLocation: emailDataLocation
    customDomain: emailCustomDomain
    customDomainVerified: emailCustomDomainVerified
    senderPrincipalId: identities.outputs.functionPrincipalId
  }
}

module notificationHubs 'modules/notificationHubs.bicep' = {
  scope: rg
  name: 'notificationHubs'
  params: {
    location: location
    tags: tags
    namespaceName: 'ntfns-${baseName}-${token}'
    hubName: 'ntf-${baseName}'
    skuName: notificationHubSku
    keyVaultName: keyVault.outputs.name
    apnsKeyId: apnsKeyId
    apnsTeamId: apnsTeamId
    apnsBundleId: apnsBundleId
    apnsToken: apnsToken
    apnsProduction: apnsProduction
    fcmProjectId: fcmProjectId
    fcmClientEmail: fcmClientEmail
    fcmPrivateKey: fcmPrivateKey
  }
}

module webPushKeys 'modules/webPushKeys.bicep' = {
  scope: rg
  name: 'webPushKeys'
  params: {
    location: location
    tags: tags
    keyVaultName: keyVault.outputs.name
    identityName: 'id-deploy-scripts-${baseName}'
  }
}

var publicBaseUrl = empty(publicHostName) ? '' : 'https://${publicHostName}'

// Values produced by this deployment that app-settings.json refers to as `resource:<key>`.
var resourceSettingValues = {
  appInsightsConnectionString: monitoring.outputs.connectionString
  ingestStatusEnabled: string(ingestStatusEnabled)
  eventHubName: eventHubs.outputs.hubName
  functionConsumerGroup: eventHubs.outputs.functionConsumerGroup
  eventHubsNamespaceHost: eventHubs.outputs.namespaceHost
  storageAccountName: storage.outputs.accountName
  functionIdentityClientId: identities.outputs.functionClientId
  emailEndpoint: email.outputs.endpoint
  emailSenderAddress: email.outputs.senderAddress
  notificationHubName: notificationHubs.outputs.hubName
  // Empty: functionApp.bicep takes the public base URL (RFC 8292 allows an https: contact).
  webPushSubject: notifyWebPushSubject
  // The cost chart's budget line is the amount the budget alerts watch.
  costsMonthlyBudget: string(budgetAmount)
}

var placeholderGuid = '00000000-0000-0000-0000-000000000000'
var signInTenant = empty(signInTenantId) || signInTenantId == placeholderGuid
  ? fail('AUTH_TENANT_ID is unset or the zero-GUID placeholder: set the environment\'s tenant id (docs/operations.md)')
  : signInTenantId
var signInPortalClient = empty(signInPortalClientId) || signInPortalClientId == placeholderGuid
  ? fail('AUTH_PORTAL_CLIENT_ID is unset or the zero-GUID placeholder: set the portal\'s client id (docs/operations.md)')
  : signInPortalClientId
var signInAppClient = empty(signInAppClientId) || signInAppClientId == placeholderGuid
  ? fail('AUTH_APP_CLIENT_ID is unset or the zero-GUID placeholder: set the member app\'s client id (docs/operations.md)')
  : signInAppClientId
var signInAuthority = '${environment().authentication.loginEndpoint}${signInTenant}/v2.0'

// Values of the deployment variables and secrets that app-settings.json names as `deploy:<name>`;
// an empty one leaves its app setting out.
var deploymentSettingValues = {
  AUTH_ISSUER: signInAuthority
  AUTH_JWKS_URL: '${environment().authentication.loginEndpoint}${signInTenant}/discovery/v2.0/keys'
  AUTH_OIDC_AUTHORITY: signInAuthority
  AUTH_PORTAL_CLIENT_ID: signInPortalClient
  AUTH_APP_CLIENT_ID: signInAppClient
  INTERNAL_CLOUD_COST_TENANT_ID: costTenantId
  INTERNAL_CLOUD_COST_CLIENT_ID: costClientId
  INTERNAL_CLOUD_COST_SUBSCRIPTION_ID: costSubscriptionId
  INTERNAL_CLOUD_COST_CLIENT_SECRET: empty(costClientSecret) ? '' : '@Microsoft.KeyVault(VaultName=${keyVault.outputs.name};SecretName=cost-client-secret)'
}

module functionApp 'modules/functionApp.bicep' = {
  scope: rg
  name: 'functionApp'
  // The Key Vault references resolve once the secrets exist (the hub's connection, the VAPID pair).
  dependsOn: [secretAccess, postgres, notificationHubs, webPushKeys]
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
    publicBaseUrl: publicBaseUrl
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
output emailEndpoint string = email.outputs.endpoint
output emailSenderAddress string = email.outputs.senderAddress
output keyVaultName string = keyVault.outputs.name
output postgresHost string = postgres.outputs.host
output ingestWorkerName string = stagingWorker ? 'ca-ingest-${environmentName}' : ''
output storageAccountName string = storage.outputs.accountName
output eventHubsNamespaceHost string = eventHubs.outputs.namespaceHost
output eventHubName string = eventHubs.outputs.hubName
// azd pushes the images of container app services to AZURE_CONTAINER_REGISTRY_ENDPOINT.
output AZURE_CONTAINER_REGISTRY_ENDPOINT string = stagingWorker ? registry!.outputs.loginServer : ''
