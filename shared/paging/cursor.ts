import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import * as v from 'valibot';
import { getSettings, SettingsError, type Settings } from '../config/settings';

/**
 * Opaque, tamper-evident keyset cursors: `<payload>.<tag>`, the payload a JSON position as
 * base64url, the tag an HMAC-SHA-256 (first 128 bits) over the list's name and the payload. A
 * cursor edited by hand (a leaderboard rank of 4,000,000) or taken from another list fails the
 * tag and is refused like any other malformed cursor. The key is PAGING_CURSOR_KEY, the same on
 * every instance of the app, so a cursor from one instance pages on another (docs/configuration.md).
 */
export interface CursorCodec<TPosition, TDecoded> {
  encode(position: TPosition): string;
  /** The position a cursor names, or undefined when it is not a cursor this list issued. */
  decode(cursor: string): TDecoded | undefined;
}

const TAG_BYTES = 16;
/** Tags a list keeps for the payloads it encoded last (see encode). */
const ISSUED_TAGS = 10_000;
const MAX_PAYLOAD_CHARS = 400;
const CURSOR_SHAPE = new RegExp(`^([A-Za-z0-9_-]{1,${MAX_PAYLOAD_CHARS}})\\.([A-Za-z0-9_-]{${Math.ceil((TAG_BYTES * 4) / 3)}})$`);

/** `list` names the list (`challenges.leaderboard`): a cursor of one list never opens another. */
export function cursorCodec<TPosition, TDecoded>(
  list: string,
  schema: v.GenericSchema<TPosition, TDecoded>,
): CursorCodec<TPosition, TDecoded> {
  const tagWith = (key: KeyObject, payload: string) =>
    createHmac('sha256', key).update(`${list}\n${payload}`).digest().subarray(0, TAG_BYTES);
  const tagOf = (payload: string) => tagWith(cursorKey(), payload);
  // A page read again hands out the same next cursor (a board's first page, to every member who
  // opens it): the tags this list issued are kept per payload, for the key they were made with
  // only, so that a repeated page costs a lookup instead of an HMAC. Bounded: emptied when full.
  const issued = new Map<string, string>();
  let issuedKey: KeyObject | undefined;
  return {
    encode(position) {
      const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
      const key = cursorKey();
      if (key !== issuedKey) {
        issued.clear();
        issuedKey = key;
      }
      let tag = issued.get(payload);
      if (tag === undefined) {
        tag = tagWith(key, payload).toString('base64url');
        if (issued.size >= ISSUED_TAGS) issued.clear();
        issued.set(payload, tag);
      }
      return `${payload}.${tag}`;
    },
    decode(cursor) {
      const match = CURSOR_SHAPE.exec(cursor);
      if (!match?.[1] || !match[2]) return undefined;
      const [, payload, tag] = match;
      // Compared in constant time, so response timing does not reveal how much of a forged tag is right.
      if (!timingSafeEqual(tagOf(payload), Buffer.from(tag, 'base64url'))) return undefined;
      try {
        const parsed = v.safeParse(schema, JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')));
        return parsed.success ? parsed.output : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** The optional `cursor` query parameter of a list: its decoded position, or a 400 naming the field. */
export function cursorParameter<TDecoded>(codec: CursorCodec<unknown, TDecoded>) {
  return v.optional(
    v.pipe(
      v.string(),
      v.rawTransform<string, TDecoded>(({ dataset, addIssue, NEVER }) => {
        const position = codec.decode(dataset.value);
        if (position !== undefined) return position;
        addIssue({ message: 'is not a cursor returned by this list' });
        return NEVER;
      }),
    ),
  );
}

const keys = new WeakMap<Settings, KeyObject>();

/**
 * PAGING_CURSOR_KEY; where it is unset (local development, tests) a key derived from
 * AUTH_JWT_SECRET, which every instance of such a deployment shares as well.
 */
function cursorKey(): KeyObject {
  const settings = getSettings();
  let key = keys.get(settings);
  if (!key) {
    const secret = settings.PAGING_CURSOR_KEY ?? settings.AUTH_JWT_SECRET;
    if (!secret) throw new SettingsError([{ setting: 'PAGING_CURSOR_KEY', message: 'is required when AUTH_JWT_SECRET is not set' }]);
    // A KeyObject, not the bytes: given bytes, createHmac imports the key anew for every tag.
    key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'shooting-club', 'paging cursor key', 32)));
    keys.set(settings, key);
  }
  return key;
}
