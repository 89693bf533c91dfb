import type { FunctionDefinition } from '../shared/host/definition';
import { builtSiteDir, staticSiteFunction } from './staticSite';

/** The member app's static files at /app/ (docs/member-app.md); the data comes from the API. */
export function memberAppFunction(dir: () => string = () => builtSiteDir('app')): FunctionDefinition {
  return staticSiteFunction({ name: 'memberApp', mount: 'app', dir });
}
