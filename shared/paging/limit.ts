import { wholeNumber } from '../validation/wholeNumber';

/** The `limit` query parameter of a list: a whole number from 1 to `max`, `fallback` when absent. */
export const pageLimit = (fallback: number, max: number) =>
  wholeNumber(fallback, 1, max, { message: `must be a whole number from 1 to ${max}` });

/** The `offset` query parameter of an offset-paged list: a whole number from 0 to `max`, 0 when absent. */
export const pageOffset = (max: number) => wholeNumber(0, 0, max, { message: `must be a whole number from 0 to ${max}` });
