// Email of the notifications (docs/notifications.md): an Email Communication Service with an
// Azure-managed domain (DoNotReply@<id>.azurecomm.net), optionally a custom domain, and the
// Communication Services resource the app sends through with its managed identity (no key).
param tags object
param emailServiceName string
param communicationServiceName string
@description('Where the email data rests (the Communication Services data location).')
param dataLocation string
@description('A custom sender domain (mail.example.org); empty: the Azure-managed domain only.')
param customDomain string
@description('Whether the custom domain passed its DNS verification; until then email goes out from the Azure-managed domain.')
param customDomainVerified bool
@description('Principal id of the function app\'s identity, which sends.')
param senderPrincipalId string

resource emailService 'Microsoft.Communication/emailServices@2023-04-01' = {
  name: emailServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
  }
}

// No click tracking: it would rewrite the links, the one-click unsubscribe link too.
resource managedDomain 'Microsoft.Communication/emailServices/domains@2023-04-01' = {
  parent: emailService
  name: 'AzureManagedDomain'
  location: 'global'
  tags: tags
  properties: {
    domainManagement: 'AzureManaged'
    userEngagementTracking: 'Disabled'
  }
}

// Created so its DNS records can be read and set (docs/operations.md, "Email"); linked once verified.
resource customEmailDomain 'Microsoft.Communication/emailServices/domains@2023-04-01' = if (!empty(customDomain)) {
  parent: emailService
  // A resource name is evaluated even when the condition is false; an empty one would not compile.
  name: empty(customDomain) ? 'unused' : customDomain
  location: 'global'
  tags: tags
  properties: {
    domainManagement: 'CustomerManaged'
    userEngagementTracking: 'Disabled'
  }
}

var sendsFromCustomDomain = !empty(customDomain) && customDomainVerified

resource communication 'Microsoft.Communication/communicationServices@2023-04-01' = {
  name: communicationServiceName
  location: 'global'
  tags: tags
  properties: {
    dataLocation: dataLocation
    linkedDomains: sendsFromCustomDomain ? [managedDomain.id, customEmailDomain.id] : [managedDomain.id]
  }
}

// Communication and Email Service Owner, on this resource only: Communication Services has no
// narrower built-in role that may send email with an Entra ID token.
var emailServiceOwner = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '09976791-48a7-449e-bb21-39d1a415f350')

resource appSends 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(communication.id, senderPrincipalId, emailServiceOwner)
  scope: communication
  properties: {
    roleDefinitionId: emailServiceOwner
    principalId: senderPrincipalId
    principalType: 'ServicePrincipal'
  }
}

@description('NOTIFY_EMAIL_ENDPOINT: the endpoint the app sends to with its managed identity.')
output endpoint string = 'https://${communication.properties.hostName}'
@description('NOTIFY_EMAIL_SENDER_ADDRESS: DoNotReply at the custom domain once verified, else at the Azure-managed domain.')
output senderAddress string = sendsFromCustomDomain ? 'DoNotReply@${customDomain}' : 'DoNotReply@${managedDomain.properties.mailFromSenderDomain}'
