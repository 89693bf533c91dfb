/**
 * The PostgreSQL driver, in one module that only client.ts requires, when the process opens its
 * first pool. The build bundles it into its own file (dist/postgresDriver.js) so a cold start of
 * the app does not parse it.
 */
export { default } from 'postgres';
