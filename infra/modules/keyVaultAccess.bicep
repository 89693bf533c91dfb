// Key Vault Secrets User for the app identities: they read secrets, never write them.
param keyVaultName string
@description('Managed identities of the apps.')
param principalIds array
@description('Who runs the deployment: it reads database-url to apply migrations. Empty skips it.')
param deployerPrincipalId string = ''

var keyVaultSecretsUser = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '4633458b-17de-408a-b874-0445c86b69e6')

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource secretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for principalId in principalIds: {
    name: guid(vault.id, principalId, keyVaultSecretsUser)
    scope: vault
    properties: {
      roleDefinitionId: keyVaultSecretsUser
      principalId: principalId
      principalType: 'ServicePrincipal'
    }
  }
]

// No principalType: the deployer may be a workload identity or a person.
resource deployerSecretsUser 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(deployerPrincipalId)) {
  name: guid(vault.id, deployerPrincipalId, keyVaultSecretsUser)
  scope: vault
  properties: {
    roleDefinitionId: keyVaultSecretsUser
    principalId: deployerPrincipalId
  }
}
