// Container registry of the staging ingest worker's image. The Deploy Staging workflow (and
// `azd deploy ingest-worker`) pushes with the deployer's login; the container app pulls with the
// worker's identity (AcrPull). No admin user, no password anywhere.
param location string
param tags object
@minLength(5)
@maxLength(50)
param name string
param workerPrincipalId string
@description('Who deploys: pushes the image. Empty skips it.')
param deployerPrincipalId string = ''

var acrPull = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '7f951dda-4ed3-4680-a7ca-43fe172d538d')
var acrPush = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '8311e382-0749-4cb8-b61a-304f252e45ec')

resource registry 'Microsoft.ContainerRegistry/registries@2023-07-01' = {
  name: name
  location: location
  tags: tags
  sku: { name: 'Basic' }
  properties: {
    adminUserEnabled: false
  }
}

resource workerPull 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(registry.id, workerPrincipalId, acrPull)
  scope: registry
  properties: {
    roleDefinitionId: acrPull
    principalId: workerPrincipalId
    principalType: 'ServicePrincipal'
  }
}

resource deployerPush 'Microsoft.Authorization/roleAssignments@2022-04-01' = if (!empty(deployerPrincipalId)) {
  name: guid(registry.id, deployerPrincipalId, acrPush)
  scope: registry
  properties: {
    roleDefinitionId: acrPush
    principalId: deployerPrincipalId
  }
}

output name string = registry.name
output loginServer string = registry.properties.loginServer
