import * as v from 'valibot';

/**
 * The one rule for text a person reads as a name (club names, challenge titles, starter lists):
 * it must display as what it is. Judged by Unicode property, not by hand-kept ranges, so that new
 * or obscure invisible characters (U+2060, U+061C, U+180E, U+206A, U+FFF9, tag characters) are
 * refused as surely as U+200B.
 */

// C0 and C1 control characters, DEL, and the Unicode line/paragraph separators.
const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;

// Format characters (bidi controls and isolates, zero-width characters, interlinear annotation,
// tags) and every other default-ignorable code point (Hangul fillers, variation selectors):
// renderers draw them as nothing, so two different names can look the same.
const INVISIBLE_CHARACTERS = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

// In `u` mode a surrogate pair is one code point, so this matches only lone surrogates.
const LONE_SURROGATE = /\p{Surrogate}/u;

export const hasNoControlCharacters = (value: string): boolean => !CONTROL_CHARACTERS.test(value);

/** No lone surrogates: they are not text and would be stored as U+FFFD. */
export const isWellFormed = (value: string): boolean => !LONE_SURROGATE.test(value);

export const hasNoInvisibleCharacters = (value: string): boolean => !INVISIBLE_CHARACTERS.test(value);

/** A trimmed human-readable name of 1 to `maxLength` characters that displays as what it is. */
export function humanTextSchema(maxLength: number) {
  return v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.minLength(1, 'must not be empty'),
    v.maxLength(maxLength, `must be at most ${maxLength} characters`),
    v.check(hasNoControlCharacters, 'must not contain control characters'),
    v.check(isWellFormed, 'must be well-formed Unicode (no lone surrogates)'),
    v.check(hasNoInvisibleCharacters, 'must not contain invisible format characters (bidi controls, zero-width and the like)'),
  );
}
