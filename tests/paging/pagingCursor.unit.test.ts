import * as v from 'valibot';
import { resetSettings } from '../../shared/config/settings';
import { cursorCodec } from '../../shared/paging/cursor';

const Position = v.tuple([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))]);
const board = cursorCodec('test.board', Position);
const inbox = cursorCodec('test.inbox', Position);

const saved = { ...process.env };
const JWKS = 'https://idp.example/jwks';
const REQUIRED = { AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'shooting-club' };
function useKeys(keys: Record<string, string>) {
  process.env = { ...saved, ...REQUIRED, AUTH_JWT_SECRET: undefined, PAGING_CURSOR_KEY: undefined, AUTH_JWKS_URL: undefined, ...keys };
  for (const [name, value] of Object.entries(process.env)) if (value === undefined) delete process.env[name];
  resetSettings();
}

const payloadOf = (cursor: string) => JSON.parse(Buffer.from(cursor.split('.')[0] ?? '', 'base64url').toString('utf8')) as unknown;
const withPayload = (cursor: string, position: unknown) =>
  `${Buffer.from(JSON.stringify(position), 'utf8').toString('base64url')}.${cursor.split('.')[1] ?? ''}`;

describe('paging cursors', () => {
  beforeEach(() => useKeys({ PAGING_CURSOR_KEY: 'k'.repeat(40), AUTH_JWKS_URL: JWKS }));
  afterAll(() => {
    process.env = saved;
    resetSettings();
  });

  it('reads back the position it wrote, which is all a cursor holds', () => {
    const cursor = board.encode(['b', 40]);
    expect(board.decode(cursor)).toEqual(['b', 40]);
    expect(payloadOf(cursor)).toEqual(['b', 40]);
  });

  it('refuses a cursor whose position was edited, even one that still fits the schema', () => {
    const cursor = board.encode(['b', 40]);
    expect(board.decode(withPayload(cursor, ['b', 4_000_000]))).toBeUndefined();
    expect(board.decode(cursor.split('.')[0] ?? '')).toBeUndefined();
    const lastTagChar = cursor.at(-1) === 'A' ? 'B' : 'A';
    expect(board.decode(cursor.slice(0, -1) + lastTagChar)).toBeUndefined();
  });

  it("refuses another list's cursor and anything that is not a cursor", () => {
    expect(inbox.decode(board.encode(['b', 40]))).toBeUndefined();
    for (const junk of ['', '.', 'not-a-cursor', 'a.b.c', `${'A'.repeat(401)}.${'A'.repeat(22)}`, 'é.AAAAAAAAAAAAAAAAAAAAAA']) {
      expect(board.decode(junk)).toBeUndefined();
    }
  });

  it('refuses a signed cursor whose position the list no longer accepts', () => {
    expect(board.decode(board.encode(['b', -1] as [string, number]))).toBeUndefined();
  });

  it('opens on another instance with the same key and not under another key', () => {
    const cursor = board.encode(['b', 40]);
    useKeys({ PAGING_CURSOR_KEY: 'k'.repeat(40), AUTH_JWKS_URL: JWKS });
    expect(board.decode(cursor)).toEqual(['b', 40]);
    useKeys({ PAGING_CURSOR_KEY: 'x'.repeat(40), AUTH_JWKS_URL: JWKS });
    expect(board.decode(cursor)).toBeUndefined();
  });

  it('derives the key from AUTH_JWT_SECRET where PAGING_CURSOR_KEY is unset, and needs one of them', () => {
    useKeys({ AUTH_JWT_SECRET: 's'.repeat(40) });
    const cursor = board.encode(['b', 40]);
    useKeys({ AUTH_JWT_SECRET: 's'.repeat(40) });
    expect(board.decode(cursor)).toEqual(['b', 40]);
    useKeys({ AUTH_JWT_SECRET: 't'.repeat(40) });
    expect(board.decode(cursor)).toBeUndefined();
    useKeys({ AUTH_JWKS_URL: JWKS });
    expect(() => board.encode(['b', 40])).toThrow(/PAGING_CURSOR_KEY/);
  });
});
