import { app } from '@azure/functions';
import { functionDefinitions } from './definitions';

/** Entry point of the deployed bundle: hands every definition to the Azure Functions host. */
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
