// The environment's Key Vault (RBAC mode). Modules that own a secret value write their own secret
// here (database-url, notification-hub-connection, the Web Push pair); this module writes the cost
// reader's client secret and the list cursor key, which arrive from outside.
param location string
param tags object
param name string

@secure()
param costClientSecret string
@description('ISO 8601 expiry of the cost client secret; empty leaves the secret without an expiry date.')
param costCredentialExpiresOn string
@secure()
@description('Key that signs list cursors; empty keeps the key already in Key Vault.')
param pagingCursorKey string

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {
  name: name
  location: location
  tags: tags
  properties: {
    tenantId: tenant().tenantId
    sku: { family: 'A', name: 'standard' }
    enableRbacAuthorization: true
    enableSoftDelete: true
    softDeleteRetentionInDays: 90
    enablePurgeProtection: true
    publicNetworkAccess: 'Enabled'
  }
}

// Written only when a value is passed, so a routine deploy never blanks the rotated secret.
resource costSecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = if (!empty(costClientSecret)) {
  parent: vault
  name: 'cost-client-secret'
  properties: {
    value: costClientSecret
    contentType: 'client secret of the cost reader app registration (24-month lifetime)'
    attributes: empty(costCredentialExpiresOn) ? { enabled: true } : { enabled: true, exp: dateTimeToEpoch(costCredentialExpiresOn) }
  }
}

// Every instance reads the same key, so a cursor from one pages on another; a new key turns the
// cursors clients hold into 400s (they start again from the first page).
resource cursorKeySecret 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = if (!empty(pagingCursorKey)) {
  parent: vault
  name: 'paging-cursor-key'
  properties: {
    value: pagingCursorKey
    contentType: 'HMAC key of list cursors (PAGING_CURSOR_KEY)'
  }
}

output name string = vault.name
output uri string = vault.properties.vaultUri
