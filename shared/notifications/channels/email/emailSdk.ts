/**
 * The SDKs of email delivery, in one module that only acsEmailSender.ts imports, and only with
 * import() on the first email sent. The build bundles it into its own file (dist/emailSdk.js), so
 * a cold start neither evaluates nor parses @azure/communication-email, @azure/identity and MSAL.
 */
export { EmailClient } from '@azure/communication-email';
export { ManagedIdentityCredential } from '@azure/identity';
// This file's copy of the Azure tracing core, handed the OpenTelemetry instrumenter when telemetry runs.
export { useInstrumenter } from '@azure/core-tracing';
