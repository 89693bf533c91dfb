import * as v from 'valibot';

/**
 * Human-readable text (names shown to people: club names, starter-list names). The rule is by
 * Unicode property, not by a hand-kept list, so characters added in later Unicode versions are
 * covered too:
 * - no control characters (category Cc) and no line or paragraph separators (Zl, Zp);
 * - no format characters (Cf: bidi embeddings, overrides and isolates, zero-width joiners, soft
 *   hyphen, BOM, tag characters) and no other default-ignorable code points (variation
 *   selectors, Hangul fillers, combining grapheme joiner): they render as nothing or reorder the
 *   text, so a name could look like another;
 * - well-formed UTF-16 (no lone surrogates: they are not text and PostgreSQL would refuse or
 *   replace them).
 */
const CONTROL_OR_SEPARATOR = /[\p{Cc}\p{Zl}\p{Zp}]/u;
const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

// String.prototype.isWellFormed exists in Node 20 but is newer than the ES2022 lib we compile against.
const isWellFormed = (value: string): boolean => (value as string & { isWellFormed(): boolean }).isWellFormed();

/** Why `value` is not human-readable text, or undefined when it is. */
export function humanTextProblem(value: string): string | undefined {
  if (!isWellFormed(value)) return 'must be well-formed Unicode (no lone surrogates)';
  if (CONTROL_OR_SEPARATOR.test(value)) return 'must not contain control characters or line separators';
  if (INVISIBLE.test(value)) return 'must not contain invisible or formatting characters (Unicode Cf or default-ignorable)';
  return undefined;
}

/** True when `value` is human-readable text under the rule above. */
export function isHumanText(value: string): boolean {
  return humanTextProblem(value) === undefined;
}

/** A trimmed name of `min` to `max` characters that passes the human-readable-text rule. */
export function humanTextSchema(options: { min?: number; max: number }) {
  const min = options.min ?? 1;
  return v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`),
    v.maxLength(options.max, `must be at most ${options.max} characters`),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = humanTextProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
  );
}
