import { createHmac, hkdfSync } from 'node:crypto';
import * as v from 'valibot';
import { overrideSettings } from '../../shared/config/settings';
import { cursorCodec } from '../../shared/paging/cursor';

const Position = v.tuple([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))]);
const board = cursorCodec('test.board', Position);
const inbox = cursorCodec('test.inbox', Position);

const JWKS = 'https://idp.example/jwks';
const REQUIRED = { AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'shooting-club' };
const restores: (() => void)[] = [];
/** Settings as if an instance had only these keys, until the test ends; a later call replaces them. */
function useKeys(keys: Record<string, string>) {
  restores.push(
    overrideSettings({ ...REQUIRED, AUTH_JWT_SECRET: undefined, PAGING_CURSOR_KEY: undefined, AUTH_JWKS_URL: undefined, ...keys }),
  );
}

const payloadOf = (cursor: string) => JSON.parse(Buffer.from(cursor.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
const withPayload = (cursor: string, position: unknown) =>
  `${Buffer.from(JSON.stringify(position), 'utf8').toString('base64url')}.${cursor.split('.')[1] ?? ''}`;

describe('paging cursors', () => {
  beforeEach(() => useKeys({ PAGING_CURSOR_KEY: 'k'.repeat(40), AUTH_JWKS_URL: JWKS }));
  afterEach(() => {
    for (const restore of restores.splice(0).reverse()) restore();
  });

  it('reads back the position it wrote, which is all a cursor holds', () => {
    const cursor = board.encode(['b', 40]);
    expect(board.decode(cursor)).toEqual(['b', 40]);
    expect(payloadOf(cursor)).toEqual(['b', 40]);
  });

  // The tag's definition is the cursor's wire format: cursors issued before a release must open after it.
  it("signs with HMAC-SHA-256 over the list's name and the payload, under the key derived from PAGING_CURSOR_KEY", () => {
    for (const position of [
      ['b', 40],
      ['ü', 0],
      ['x'.repeat(200), 7],
    ] as [string, number][]) {
      const [payload, tag] = board.encode(position).split('.');
      const key = Buffer.from(hkdfSync('sha256', 'k'.repeat(40), 'shooting-club', 'paging cursor key', 32));
      const expected = createHmac('sha256', key).update(`test.board\n${payload}`).digest().subarray(0, 16).toString('base64url');
      expect(tag).toBe(expected);
    }
  });

  it('refuses a cursor whose position was edited, even one that still fits the schema', () => {
    const cursor = board.encode(['b', 40]);
    expect(board.decode(withPayload(cursor, ['b', 4_000_000]))).toBeUndefined();
  });

  it('refuses a cursor without its signature', () => {
    const cursor = board.encode(['b', 40]);
    expect(board.decode(cursor.split('.')[0] ?? '')).toBeUndefined();
  });

  it('refuses a cursor whose signature was edited', () => {
    const cursor = board.encode(['b', 40]);
    const lastTagChar = cursor.at(-1) === 'A' ? 'B' : 'A';
    expect(board.decode(cursor.slice(0, -1) + lastTagChar)).toBeUndefined();
  });

  it("refuses another list's cursor", () => {
    expect(inbox.decode(board.encode(['b', 40]))).toBeUndefined();
  });

  it.each([
    ['the empty string', ''],
    ['a lone dot', '.'],
    ['a word', 'not-a-cursor'],
    ['three parts', 'a.b.c'],
    ['an overlong payload', `${'A'.repeat(401)}.${'A'.repeat(22)}`],
    ['a payload that is not base64url', 'é.AAAAAAAAAAAAAAAAAAAAAA'],
  ])('refuses %s, which is not a cursor', (_what, junk) => {
    expect(board.decode(junk)).toBeUndefined();
  });

  it('refuses a signed cursor whose position the list no longer accepts', () => {
    expect(board.decode(board.encode(['b', -1] as [string, number]))).toBeUndefined();
  });

  it('opens on another instance with the same key', () => {
    const cursor = board.encode(['b', 40]);
    useKeys({ PAGING_CURSOR_KEY: 'k'.repeat(40), AUTH_JWKS_URL: JWKS });
    expect(board.decode(cursor)).toEqual(['b', 40]);
  });

  it('signs a position encoded again under another key with that key, never with the one before', () => {
    const before = board.encode(['b', 40]);
    useKeys({ PAGING_CURSOR_KEY: 'x'.repeat(40), AUTH_JWKS_URL: JWKS });
    const after = board.encode(['b', 40]);
    expect(after).not.toBe(before);
    expect(board.decode(after)).toEqual(['b', 40]);
    expect(board.decode(before)).toBeUndefined();
  });

  it('gives the same cursor for a position encoded again, also after many other positions', () => {
    const first = board.encode(['b', 40]);
    for (let n = 0; n < 25_000; n += 1) expect(board.decode(board.encode(['p', n]))).toEqual(['p', n]);
    expect(board.encode(['b', 40])).toBe(first);
  });

  it('does not open under another key', () => {
    const cursor = board.encode(['b', 40]);
    useKeys({ PAGING_CURSOR_KEY: 'x'.repeat(40), AUTH_JWKS_URL: JWKS });
    expect(board.decode(cursor)).toBeUndefined();
  });

  it('derives the key from AUTH_JWT_SECRET where PAGING_CURSOR_KEY is unset: the same secret opens the cursor', () => {
    useKeys({ AUTH_JWT_SECRET: 's'.repeat(40) });
    const cursor = board.encode(['b', 40]);
    useKeys({ AUTH_JWT_SECRET: 's'.repeat(40) });
    expect(board.decode(cursor)).toEqual(['b', 40]);
  });

  it('derives the key from AUTH_JWT_SECRET where PAGING_CURSOR_KEY is unset: another secret does not open it', () => {
    useKeys({ AUTH_JWT_SECRET: 's'.repeat(40) });
    const cursor = board.encode(['b', 40]);
    useKeys({ AUTH_JWT_SECRET: 't'.repeat(40) });
    expect(board.decode(cursor)).toBeUndefined();
  });

  it('needs PAGING_CURSOR_KEY or AUTH_JWT_SECRET to sign a cursor', () => {
    useKeys({ AUTH_JWKS_URL: JWKS });
    expect(() => board.encode(['b', 40])).toThrow(/PAGING_CURSOR_KEY/);
  });
});
