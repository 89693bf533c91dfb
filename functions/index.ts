import { app } from '@azure/functions';
import { getSettings } from '../shared/config/settings';
import { functionDefinitions } from './definitions';

/**
 * Entry point of the deployed bundle: validates the app settings, then hands every definition to
 * the Azure Functions host. An invalid setting fails the load with a SettingsError naming it
 * (never its value), so the host reports the broken deployment instead of answering 500s.
 */
getSettings();

app.setup({ enableHttpStream: false });

for (const definition of functionDefinitions) {
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
