// User-assigned identities exist before the apps that use them, so their Key Vault and storage roles
// are in place when the apps first resolve Key Vault references and pull their package.
param location string
param tags object
param functionIdentityName string
param workerIdentityName string

resource functionIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: functionIdentityName
  location: location
  tags: tags
}

resource workerIdentity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: workerIdentityName
  location: location
  tags: tags
}

output functionIdentityId string = functionIdentity.id
output functionPrincipalId string = functionIdentity.properties.principalId
output workerIdentityId string = workerIdentity.id
output workerPrincipalId string = workerIdentity.properties.principalId
output workerClientId string = workerIdentity.properties.clientId
output functionClientId string = functionIdentity.properties.clientId
