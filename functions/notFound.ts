import { httpGroup } from '../shared/host/definition';

/** Lowest precedence: any path no group claims answers 404 in problem+json. */
export const notFoundFunction = httpGroup('notFound', '', []);
