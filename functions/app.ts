import type { FunctionDefinition } from '../shared/host/definition';
import { declared } from './declarations';
import { builtSiteDir, staticSiteFunction } from './staticSite';

/** The member app's static files at /app/ (docs/member-app.md); the data comes from the API. */
export function memberAppFunction(dir: () => string = () => builtSiteDir(declared.memberApp.mount)): FunctionDefinition {
  return staticSiteFunction(declared.memberApp, dir);
}
