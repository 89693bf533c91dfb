/**
 * The opaque list cursor: the position (created_at, seq) of the last entry of a page, as
 * base64url JSON. `createdAt` keeps PostgreSQL's microseconds, which a JS Date would lose.
 */
export interface InboxPosition {
  createdAt: string;
  seq: number;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/**
 * Whether the timestamp names a real instant PostgreSQL accepts. Date.parse rolls impossible
 * dates over (2026-02-30 is read as 2 March) where PostgreSQL rejects them, so the date-time
 * part must survive a round trip unchanged; year 0000 does not exist in PostgreSQL.
 */
function isPossibleTimestamp(value: string): boolean {
  if (!TIMESTAMP.test(value) || Number(value.slice(0, 4)) < 1) return false;
  const parsed = new Date(value);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === value.slice(0, 19);
}

export function encodeCursor(position: InboxPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.seq]), 'utf8').toString('base64url');
}

/** The position a cursor names, or undefined when it is not a cursor this service issued. */
export function decodeCursor(cursor: string): InboxPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [createdAt, seq] = value as unknown[];
    if (typeof createdAt !== 'string' || !isPossibleTimestamp(createdAt)) return undefined;
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
    return { createdAt, seq };
  } catch {
    return undefined;
  }
}
