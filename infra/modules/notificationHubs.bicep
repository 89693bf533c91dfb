// Mobile push (docs/notifications.md#push): a Notification Hubs namespace and hub. The APNs and FCM
// v1 credentials are optional secure parameters (a platform without them has no registrations);
// the app's connection string (Listen, Send, Manage: it creates installations) goes to Key Vault.
param location string
param tags object
param namespaceName string
param hubName string
@allowed(['Free', 'Basic', 'Standard'])
param skuName string
param keyVaultName string

@description('APNs token authentication: key id, team id, bundle id and the .p8 key; any empty: no APNs.')
param apnsKeyId string
param apnsTeamId string
param apnsBundleId string
@secure()
param apnsToken string
@description('Production APNs, or the sandbox for development builds.')
param apnsProduction bool

@description('FCM v1: the service account of the Firebase project; any empty: no FCM.')
param fcmProjectId string
param fcmClientEmail string
@secure()
param fcmPrivateKey string

var apns = !empty(apnsKeyId) && !empty(apnsTeamId) && !empty(apnsBundleId) && !empty(apnsToken)
var fcm = !empty(fcmProjectId) && !empty(fcmClientEmail) && !empty(fcmPrivateKey)

resource namespace 'Microsoft.NotificationHubs/namespaces@2023-10-01-preview' = {
  name: namespaceName
  location: location
  tags: tags
  sku: { name: skuName }
  properties: {
    namespaceType: 'NotificationHub'
  }
}

resource hub 'Microsoft.NotificationHubs/namespaces/notificationHubs@2023-10-01-preview' = {
  parent: namespace
  name: hubName
  location: location
  tags: tags
  properties: {
    apnsCredential: apns
      ? {
          properties: {
            keyId: apnsKeyId
            appId: apnsTeamId
            appName: apnsBundleId
            token: apnsToken
            endpoint: apnsProduction ? 'https://api.push.apple.com:443/3/device' : 'https://api.development.push.apple.com:443/3/device'
          }
        }
      : null
    fcmV1Credential: fcm
      ? {
          properties: {
            projectId: fcmProjectId
            clientEmail: fcmClientEmail
            privateKey: fcmPrivateKey
          }
        }
      : null
  }
}

resource appRule 'Microsoft.NotificationHubs/namespaces/notificationHubs/AuthorizationRules@2023-10-01-preview' = {
  parent: hub
  name: 'app-send-manage'
  properties: {
    rights: ['Listen', 'Send', 'Manage']
  }
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource connectionSecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'notification-hub-connection'
  properties: {
    value: appRule.listKeys().primaryConnectionString
    contentType: 'Notification Hubs connection string with Listen, Send and Manage rights (NOTIFY_PUSH_HUB_CONNECTION)'
  }
}

@description('NOTIFY_PUSH_HUB_NAME')
output hubName string = hub.name
