import type { FunctionDefinition } from '../shared/host/definition';
import { declared } from './declarations';
import { builtSiteDir, staticSiteFunction } from './staticSite';

/**
 * The admin portal's static files at /portal/ (docs/portal.md). Not `/admin/`: the Azure host
 * reserves routes starting with admin.
 */
export function portalFunction(dir: () => string = () => builtSiteDir(declared.portal.mount)): FunctionDefinition {
  return staticSiteFunction(declared.portal, dir);
}
