import * as v from 'valibot';
import { hasNoControlCharacters, hasNoInvisibleCharacters, isWellFormed } from '../validation/humanText';

/**
 * The one rule for a user id: the `sub` a token may carry, and so every id a route takes for a
 * user (a leader to appoint, a member whose page is read). An id that breaks it could never sign
 * in, and an id holding a line feed, a bidi override or a zero-width character would display as
 * someone else.
 */
export const MAX_SUBJECT_LENGTH = 200;

/** A user id in a request (path, query or body), refused by the same rule as a token's subject. */
export function userIdSchema() {
  return v.pipe(
    v.string('must be a string'),
    v.nonEmpty('must not be empty'),
    v.maxLength(MAX_SUBJECT_LENGTH, `must be at most ${MAX_SUBJECT_LENGTH} characters`),
    v.check(hasNoControlCharacters, 'must not contain control characters or line breaks'),
    v.check(isWellFormed, 'must be well-formed Unicode (no lone surrogates)'),
    v.check(hasNoInvisibleCharacters, 'must not contain invisible format characters (bidi controls, zero-width and the like)'),
  );
}

const SUBJECT = userIdSchema();

/** Whether a token's `sub` names a user this service can hold. */
export const isUsableSubject = (value: unknown): value is string => v.is(SUBJECT, value);
