// Production. Values that change per deploy come from the workflow's environment (see
// .github/workflows/infra.yml); everything else is fixed here.
using '../main.bicep'

param environmentName = 'production'
param location = 'westeurope'
param maximumInstanceCount = 40

param postgresAdminPassword = readEnvironmentVariable('POSTGRES_ADMIN_PASSWORD')

// On production a serverless function ingests; the dedicated worker is a staging tool.
param ingestWorkerEnabled = false

// The value the running app has; the rollout check switches it on after the release is live.
param ingestStatusEnabled = bool(readEnvironmentVariable('INGEST_STATUS_ENABLED_DEPLOYED', 'false'))

param costReaderPrincipalId = readEnvironmentVariable('COST_READER_PRINCIPAL_ID', '')
// The cost dashboard's four settings (spec: deployment variables and a secret); one missing: not configured.
param costTenantId = readEnvironmentVariable('INTERNAL_CLOUD_COST_TENANT_ID', '')
param costClientId = readEnvironmentVariable('INTERNAL_CLOUD_COST_CLIENT_ID', '')
param costSubscriptionId = readEnvironmentVariable('INTERNAL_CLOUD_COST_SUBSCRIPTION_ID', '')
param costClientSecret = readEnvironmentVariable('INTERNAL_CLOUD_COST_CLIENT_SECRET', '')
// Sign-in: the environment's tenant and app registrations (variables, as the cost settings);
// main.bicep refuses an empty one or the zero-GUID placeholder.
param signInTenantId = readEnvironmentVariable('AUTH_TENANT_ID', '')
param signInPortalClientId = readEnvironmentVariable('AUTH_PORTAL_CLIENT_ID', '')
param signInAppClientId = readEnvironmentVariable('AUTH_APP_CLIENT_ID', '')

param pagingCursorKey = readEnvironmentVariable('PAGING_CURSOR_KEY', '')
param costCredentialExpiresOn = readEnvironmentVariable('COST_CLIENT_SECRET_EXPIRES_ON', '')

param deployBudget = true
param budgetAmount = 150
param budgetStartDate = '2026-12-01'
param budgetContactEmails = split(readEnvironmentVariable('BUDGET_CONTACT_EMAILS'), ',')

// Delivery (docs/operations.md, "Email and push"): a custom sender domain and host name, the
// Web Push contact, and the app stores' push credentials; each empty means the default or none.
param emailCustomDomain = readEnvironmentVariable('NOTIFY_EMAIL_CUSTOM_DOMAIN', '')
param publicHostName = readEnvironmentVariable('NOTIFY_PUBLIC_HOST_NAME', '')
param notifyWebPushSubject = readEnvironmentVariable('NOTIFY_WEBPUSH_SUBJECT', '')
param apnsKeyId = readEnvironmentVariable('NOTIFY_APNS_KEY_ID', '')
param apnsTeamId = readEnvironmentVariable('NOTIFY_APNS_TEAM_ID', '')
param apnsBundleId = readEnvironmentVariable('NOTIFY_APNS_BUNDLE_ID', '')
param apnsToken = readEnvironmentVariable('NOTIFY_APNS_TOKEN', '')
param fcmProjectId = readEnvironmentVariable('NOTIFY_FCM_PROJECT_ID', '')
param fcmClientEmail = readEnvironmentVariable('NOTIFY_FCM_CLIENT_EMAIL', '')
param fcmPrivateKey = readEnvironmentVariable('NOTIFY_FCM_PRIVATE_KEY', '')
param emailCustomDomainVerified = bool(readEnvironmentVariable('NOTIFY_EMAIL_CUSTOM_DOMAIN_VERIFIED', 'false'))
// Basic: no device limit of the Free tier (500) and an SLA.
param notificationHubSku = 'Basic'
