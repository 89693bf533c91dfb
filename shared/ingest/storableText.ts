/**
 * Text that PostgreSQL and JSON both take and that stays small: no NUL or other control
 * character (text and jsonb refuse NUL; the others are never legitimate in a change event and
 * garble logs), no lone UTF-16 surrogate (not encodable as UTF-8), and a length cap. The contract
 * refuses values that break these rules; what it stores about a refused value goes through
 * `storableText` first.
 */

// C0 controls, DEL and C1 controls, and surrogates without their partner.
const UNSTORABLE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_ALL = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `value` holds only characters the database stores unchanged. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/** Caps `value` at `max` characters (an ellipsis marks a cut) and replaces unstorable characters with U+FFFD. */
export function storableText(value: string, max: number): string {
  const cut = value.length > max;
  // Cut before scanning: a 700,000-character value costs no more than a short one.
  const head = cut ? value.slice(0, Math.max(0, max - 1)) : value;
  const clean = head.replace(UNSTORABLE_ALL, '\ufffd');
  return cut ? `${clean}…` : clean;
}

/** `storableText` for nullable values. */
export function storableOrNull(value: string | null | undefined, max: number): string | null {
  return value === null || value === undefined ? null : storableText(value, max);
}

/** Caps for what the ingest stores about an event: a few hundred characters at most. */
export const TEXT_CAPS = {
  topic: 200,
  clubId: 64,
  entity: 64,
  detail: 300,
  path: 200,
} as const;
