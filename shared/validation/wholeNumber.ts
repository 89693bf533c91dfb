import * as v from 'valibot';
import { parsedAs } from './parsedAs';

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
