import * as v from 'valibot';
import { parsedAs } from './parsedAs';

/**
 * The two forms of a bounded whole number: `wholeNumber` for values that arrive as text (query
 * strings, app settings), `bodyWholeNumber` for JSON bodies, where it arrives as a number. Both
 * answer with the same messages.
 */

/**
 * A whole number that arrives as text (an app setting, a query parameter) within [min, max], with
 * a default when absent. At most 15 digits are read: beyond that a JavaScript number is no longer
 * exact, and no bound here comes near it. `message` replaces the message of every failure, for
 * parameters that explain their range in one sentence. The OpenAPI document shows it as the
 * integer it becomes.
 */
export const wholeNumber = (fallback: number, min: number, max: number, options: { message?: string } = {}) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,15}$/, options.message ?? 'must be a whole number'),
      v.transform(Number),
      v.minValue(min, options.message ?? `must be at least ${min}`),
      v.maxValue(max, options.message ?? `must be at most ${max}`),
      parsedAs({ type: 'integer', minimum: min, maximum: max }),
    ),
    String(fallback),
  );

/** A whole number in a JSON body within [min, max]: a JSON number without a fraction. */
export const bodyWholeNumber = (min: number, max: number) =>
  v.pipe(
    v.number('must be a number'),
    v.integer('must be a whole number'),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
