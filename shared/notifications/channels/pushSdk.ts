/**
 * The SDKs of push delivery, in one module that the push channels import only with import() on
 * their first push or registration. The build bundles it into its own file (dist/pushSdk.js), so a
 * cold start neither evaluates nor parses @azure/notification-hubs and web-push.
 */
export {
  createAppleInstallation,
  createFcmV1Installation,
  createTemplateNotification,
  NotificationHubsClient,
} from '@azure/notification-hubs';
export { default as webPush, WebPushError } from 'web-push';
// This file's copy of the Azure tracing core, handed the OpenTelemetry instrumenter when telemetry runs.
export { useInstrumenter } from '@azure/core-tracing';
