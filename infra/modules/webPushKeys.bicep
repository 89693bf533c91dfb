// The Web Push VAPID key pair, made once into Key Vault by a deployment script (webPushKeys.sh) and
// kept across deploys: browsers subscribed with its public key. The script runs with an identity
// of its own that may write secrets; the apps only read them.
param location string
param tags object
param keyVaultName string
param identityName string
@description('Changes every deploy, so the script runs each time and finds (or makes) the pair.')
param runTag string = utcNow()

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource scriptIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: identityName
  location: location
  tags: tags
}

// Key Vault Secrets Officer: reads and writes the two secrets.
var secretsOfficer = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'b86a8fe4-44ce-4948-aee5-eccb2c155cd7')

resource writesSecrets 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(vault.id, scriptIdentity.id, secretsOfficer)
  scope: vault
  properties: {
    roleDefinitionId: secretsOfficer
    principalId: scriptIdentity.properties.principalId
    principalType: 'ServicePrincipal'
  }
}

resource makeKeys 'Microsoft.Resources/deploymentScripts@2023-08-01' = {
  name: 'webpush-vapid-keys'
  location: location
  tags: tags
  kind: 'AzureCLI'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: { '${scriptIdentity.id}': {} }
  }
  dependsOn: [writesSecrets]
  properties: {
    azCliVersion: '2.61.0'
    forceUpdateTag: runTag
    scriptContent: loadTextContent('webPushKeys.sh')
    environmentVariables: [{ name: 'VAULT_NAME', value: keyVaultName }]
    timeout: 'PT15M'
    retentionInterval: 'PT1H'
    cleanupPreference: 'OnSuccess'
  }
}
