import { hasNoControlCharacters, hasNoInvisibleCharacters, isWellFormed } from '../validation/humanText';

/** The longest display name (docs/member-app.md, Profile). */
export const MAX_DISPLAY_NAME_LENGTH = 50;

/**
 * The display name a sign-in's token claims (OpenID Connect standard claims) suggest: `name`; else `given_name` and `family_name`; else the part
 * of `preferred_username` or `email` before the '@'; undefined when none gives a usable name
 * (a new profile then has no name, and an existing one keeps its name).
 * Each candidate is made displayable first: control, line and invisible format characters go,
 * runs of spaces become one, and it is cut to 50 characters (never inside a surrogate pair).
 */
export function signInNameOf(claims: Readonly<Record<string, unknown>>): string | undefined {
  const fullName = [claims['given_name'], claims['family_name']].filter((part) => typeof part === 'string').join(' ');
  const candidates = [claims['name'], fullName, beforeAt(claims['preferred_username']), beforeAt(claims['email'])];
  for (const candidate of candidates) {
    if (typeof candidate !== 'string') continue;
    const name = displayable(candidate);
    if (name) return name;
  }
  return undefined;
}

function beforeAt(value: unknown): string | undefined {
  return typeof value === 'string' ? value.split('@')[0] : undefined;
}

function displayable(value: string): string {
  const kept = Array.from(value)
    .map((character) =>
      isWellFormed(character) && hasNoControlCharacters(character) && hasNoInvisibleCharacters(character) ? character : ' ',
    )
    .join('')
    .replace(/\s+/gu, ' ')
    .trim();
  // Cut by whole code points to at most 50 UTF-16 units, the length a display name is checked by.
  let cut = '';
  for (const character of kept) {
    if (cut.length + character.length > MAX_DISPLAY_NAME_LENGTH) break;
    cut += character;
  }
  return cut.trim();
}
