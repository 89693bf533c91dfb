import { defineGroup } from '../shared/host/definition';
import { declared } from './declarations';

/** Lowest precedence: any path no group claims answers 404 in problem+json. */
export const notFoundFunction = defineGroup(declared.notFound, []);
