// Cost Management Reader on the subscription for the cost dashboard's service principal: it can
// read costs and forecasts and change nothing.
targetScope = 'subscription'

@description('Object id of the service principal (not the application/client id).')
param principalId string

var costManagementReader = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '72fafb9e-0641-4937-9268-a91bfd8191a3')

resource readerAssignment 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(subscription().id, principalId, costManagementReader)
  properties: {
    roleDefinitionId: costManagementReader
    principalId: principalId
    principalType: 'ServicePrincipal'
    description: 'Cost dashboard of the shooting-club backend (read-only)'
  }
}
