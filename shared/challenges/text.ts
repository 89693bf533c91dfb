import * as v from 'valibot';

// Format characters (Cf: bidi overrides, zero-width joiners, soft hyphens) and every other code
// point Unicode says renders as nothing: a title made of them looks empty or spoofs another.
const INVISIBLE = /\p{Cf}|\p{Default_Ignorable_Code_Point}/u;

/** True when the text holds a format or default-ignorable (invisible) code point. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/** Human-readable text (challenge titles, badge names): trimmed, bounded, nothing invisible. */
export function visibleText(maxLength: number) {
  return v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.nonEmpty('must not be empty'),
    v.maxLength(maxLength, `must be at most ${maxLength} characters`),
    v.check((text) => !hasInvisibleCharacters(text), 'must not contain invisible or format characters'),
  );
}
