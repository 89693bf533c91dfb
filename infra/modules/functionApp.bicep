// The function app on a Flex Consumption plan. The platform runs the app from the zip package in
// the deployment container (run-from-package is the only mode on Flex), so no
// WEBSITE_RUN_FROM_PACKAGE, FUNCTIONS_WORKER_RUNTIME or FUNCTIONS_EXTENSION_VERSION setting is set:
// functionAppConfig carries the runtime instead.
param location string
param tags object
param planName string
param name string
param nodeVersion string
param maximumInstanceCount int
param identityId string
param deploymentContainerUrl string
param keyVaultName string

@description('infra/app-settings.json: { app: {...}, platform: {...} }, each value a literal or secret:/env:/resource:/deploy:<key>.')
param settingSources object
param environmentSettings object
param resourceSettingValues object
@description('Deployment variables and secrets by setting name; an empty value leaves the setting out.')
param deploymentSettingValues object
@description('NOTIFY_PUBLIC_BASE_URL (https://<custom host>); empty: the app\'s own https host name.')
param publicBaseUrl string

// Every setting is written in one place: a literal, a Key Vault reference, an environment value
// from infra/env/<environment>.settings.json, a value this deployment produced, or a deployment
// variable (`deploy:`), which is left out when empty so that the app sees it as not configured.
var settingEntries = items(union(settingSources.app, settingSources.platform))
var secretEntries = filter(settingEntries, entry => startsWith(entry.value, 'secret:'))
var environmentEntries = filter(settingEntries, entry => startsWith(entry.value, 'env:'))
var resourceEntries = filter(settingEntries, entry => startsWith(entry.value, 'resource:'))
var deploymentEntries = filter(settingEntries, entry => startsWith(entry.value, 'deploy:') && !empty(deploymentSettingValues[substring(entry.value, length('deploy:'))]))
var literalEntries = filter(settingEntries, entry => !startsWith(entry.value, 'secret:') && !startsWith(entry.value, 'env:') && !startsWith(entry.value, 'resource:') && !startsWith(entry.value, 'deploy:'))

var secretSettings = toObject(secretEntries, entry => entry.key, entry => '@Microsoft.KeyVault(VaultName=${keyVaultName};SecretName=${substring(entry.value, length('secret:'))})')
var environmentValues = toObject(environmentEntries, entry => entry.key, entry => environmentSettings[substring(entry.value, length('env:'))])
// The one value only this module knows: the site's host name, for the links in emails.
var siteBaseUrl = empty(publicBaseUrl) ? 'https://${site.properties.defaultHostName}' : publicBaseUrl
var siteValues = {
  publicBaseUrl: siteBaseUrl
  webPushSubject: empty(resourceSettingValues.webPushSubject) ? siteBaseUrl : resourceSettingValues.webPushSubject
}
var resourceValues = toObject(resourceEntries, entry => entry.key, entry => union(resourceSettingValues, siteValues)[substring(entry.value, length('resource:'))])
var deploymentValues = toObject(deploymentEntries, entry => entry.key, entry => deploymentSettingValues[substring(entry.value, length('deploy:'))])
var literalSettings = toObject(literalEntries, entry => entry.key, entry => entry.value)
var appSettings = union(literalSettings, secretSettings, environmentValues, resourceValues, deploymentValues)

resource plan 'Microsoft.Web/serverfarms@2024-04-01' = {
  name: planName
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    tier: 'FlexConsumption'
    name: 'FC1'
  }
  properties: {
    reserved: true
  }
}

resource site 'Microsoft.Web/sites@2024-04-01' = {
  name: name
  location: location
  // azd finds the app of the `api` service (azure.yaml) by this tag.
  tags: union(tags, { 'azd-service-name': 'api' })
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${identityId}': {} }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    keyVaultReferenceIdentity: identityId
    siteConfig: {
      minTlsVersion: '1.2'
      ftpsState: 'Disabled'
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: deploymentContainerUrl
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identityId
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        instanceMemoryMB: 2048
      }
      runtime: {
        name: 'node'
        version: nodeVersion
      }
    }
  }
}

// The complete set: settings not listed in app-settings.json are removed on deploy.
resource settings 'Microsoft.Web/sites/config@2024-04-01' = {
  parent: site
  name: 'appsettings'
  properties: appSettings
}

output name string = site.name
output url string = 'https://${site.properties.defaultHostName}'
