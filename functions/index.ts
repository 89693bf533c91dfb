import { app } from '@azure/functions';
import { getSettings } from '../shared/config/settings';
import { appLogger } from '../shared/log/appLogger';
import { secretValues, startTelemetryAfterLoad } from '../shared/telemetry/startup';
import { registrations } from './registrations';

/**
 * Entry point of the deployed bundle: validates the app settings, then hands every function to
 * the Azure Functions host (functions/registrations.ts: each area's code loads on first use). An
 * invalid setting fails the load with a SettingsError naming it (never its value), so the host
 * reports the broken deployment instead of answering 500s.
 */
const settings = getSettings();
const telemetryOn = settings.APPLICATIONINSIGHTS_CONNECTION_STRING !== undefined;

// With telemetry the worker sends its log records itself, so the host must not send its copy;
// setup can only change while the app loads, before the telemetry backend is there.
app.setup({ enableHttpStream: false, ...(telemetryOn ? { capabilities: { WorkerOpenTelemetryEnabled: true } } : {}) });

for (const definition of registrations) {
  switch (definition.kind) {
    case 'http':
      app.http(definition.name, definition.options);
      break;
    case 'timer':
      app.timer(definition.name, definition.options);
      break;
    case 'eventHub':
      app.eventHub(definition.name, definition.options);
      break;
  }
}

// OpenTelemetry loads after this module returned (shared/telemetry/startup.ts): never on the cold start's path.
startTelemetryAfterLoad({
  connectionString: settings.APPLICATIONINSIGHTS_CONNECTION_STRING,
  secrets: secretValues(settings),
  serviceName: 'shooting-club-backend',
  functionsHooks: app.hook,
  onError: (error) => appLogger().error('telemetry_start_failed', { error }),
});
