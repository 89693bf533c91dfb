/**
 * The JOSE library, in one module that only jwt.ts imports, and only with import() on the first
 * token it verifies. The build bundles it into its own file (dist/joseSdk.js) so a cold start does
 * not parse it.
 */
export { createRemoteJWKSet, errors, jwtVerify } from 'jose';
