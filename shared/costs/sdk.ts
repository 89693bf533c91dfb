/**
 * The Azure SDKs the cost provider needs, in one module that only azureProvider.ts imports, and
 * only with import() on its first call. The build bundles it into its own file (dist/costSdk.js)
 * so that the app's bundle neither evaluates nor even parses them at a cold start.
 */
export { ClientSecretCredential } from '@azure/identity';
export { CostManagementClient } from '@azure/arm-costmanagement';
export { createHttpHeaders, createPipelineRequest, RestError } from '@azure/core-rest-pipeline';
// This file's copy of the Azure tracing core, handed the OpenTelemetry instrumenter when telemetry runs.
export { useInstrumenter } from '@azure/core-tracing';
