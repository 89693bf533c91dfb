// Azure Database for PostgreSQL Flexible Server with the app's database. The connection string the
// app uses (DATABASE_URL) is built here and kept only in Key Vault.
param location string
param tags object
param name string
param administratorLogin string
@secure()
param administratorPassword string
param skuName string
param skuTier string
param storageSizeGB int
param databaseName string
param keyVaultName string
@description('PostgreSQL major version: the embedded server that local runs and CI test on is the same major (docs/decisions/015-one-postgresql-major.md).')
param version string = '18'

resource server 'Microsoft.DBforPostgreSQL/flexibleServers@2025-08-01' = {
  name: name
  location: location
  tags: tags
  sku: {
    name: skuName
    tier: skuTier
  }
  properties: {
    version: version
    administratorLogin: administratorLogin
    administratorLoginPassword: administratorPassword
    storage: { storageSizeGB: storageSizeGB }
    backup: {
      backupRetentionDays: 7
      geoRedundantBackup: 'Disabled'
    }
    highAvailability: { mode: 'Disabled' }
    network: { publicNetworkAccess: 'Enabled' }
    authConfig: {
      passwordAuth: 'Enabled'
      activeDirectoryAuth: 'Disabled'
    }
  }
}

resource database 'Microsoft.DBforPostgreSQL/flexibleServers/databases@2025-08-01' = {
  parent: server
  name: databaseName
  properties: {
    charset: 'UTF8'
    collation: 'en_US.utf8'
  }
}

// Flex Consumption and Container Apps have no fixed outbound addresses without a virtual network;
// 0.0.0.0 is the documented rule for "allow Azure services". TLS is enforced by the server.
resource allowAzure 'Microsoft.DBforPostgreSQL/flexibleServers/firewallRules@2025-08-01' = {
  parent: server
  name: 'AllowAllAzureServicesAndResourcesWithinAzureIps'
  properties: {
    startIpAddress: '0.0.0.0'
    endIpAddress: '0.0.0.0'
  }
}

resource vault 'Microsoft.KeyVault/vaults@2023-07-01' existing = {
  name: keyVaultName
}

resource databaseUrl 'Microsoft.KeyVault/vaults/secrets@2023-07-01' = {
  parent: vault
  name: 'database-url'
  properties: {
    value: 'postgres://${uriComponent(administratorLogin)}:${uriComponent(administratorPassword)}@${server.properties.fullyQualifiedDomainName}:5432/${database.name}?sslmode=require'
    contentType: 'DATABASE_URL'
  }
}

output host string = server.properties.fullyQualifiedDomainName
