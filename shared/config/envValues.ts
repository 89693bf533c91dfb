import * as v from 'valibot';

/** valibot pieces for settings that arrive as environment strings; shared by the app and the box agent. */

/** `true`/`false` (or 1/0) into a boolean, with a default when unset. */
export const flag = (fallback: boolean) =>
  v.optional(
    v.pipe(
      v.picklist(['true', 'false', '1', '0'], 'must be true or false'),
      v.transform((value) => value === 'true' || value === '1'),
    ),
    fallback ? 'true' : 'false',
  );

/** A whole number within bounds, with a default when unset (the one helper of the app). */
export { wholeNumber } from '../validation/wholeNumber';

/** Trimmed text where an empty value counts as unset (as local.settings files write them). */
export const optionalText = v.optional(
  v.pipe(
    v.string(),
    v.trim(),
    v.transform((value) => value || undefined),
  ),
);

export interface SettingProblem {
  setting: string;
  message: string;
}

export type EnvReading<T> = { ok: true; value: T } | { ok: false; problems: SettingProblem[] };

/**
 * Takes the named variables from `env` (unset ones stay absent so defaults apply) and validates
 * them; a failure names each bad setting and never repeats its value. With `emptyIsUnset`, an
 * empty value counts as unset too (every setting of the box agent has a default or is optional).
 */
export function readEnvSettings<S extends v.GenericSchema>(
  schema: S,
  names: readonly string[],
  env: Record<string, string | undefined>,
  options: { emptyIsUnset?: boolean } = {},
): EnvReading<v.InferOutput<S>> {
  const input: Record<string, string> = {};
  for (const name of names) {
    const value = env[name];
    // A settings file lists every setting with an empty value for the ones left to their default.
    if (value === undefined || (options.emptyIsUnset && value.trim() === '')) continue;
    input[name] = value;
  }
  const result = v.safeParse(schema, input);
  if (result.success) return { ok: true, value: result.output };
  return {
    ok: false,
    problems: result.issues.map((issue) => ({ setting: v.getDotPath(issue) ?? '(settings)', message: issue.message })),
  };
}
