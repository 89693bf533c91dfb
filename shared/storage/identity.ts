/**
 * The identity credentials of an identity-based storage connection, in one module that only
 * tables.ts imports, and only with import() on the first token request. The build bundles it into
 * its own file (dist/identitySdk.js) so a cold start neither evaluates nor parses @azure/identity
 * and MSAL.
 */
export { DefaultAzureCredential, ManagedIdentityCredential } from '@azure/identity';
