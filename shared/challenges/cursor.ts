import * as v from 'valibot';

/** Opaque keyset cursors: a tuple as base64url JSON, checked against a schema when read back. */
export function encodeCursor(tuple: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(tuple), 'utf8').toString('base64url');
}

export function decodeCursor<S extends v.GenericSchema>(schema: S, cursor: string): v.InferOutput<S> | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  try {
    const parsed = v.safeParse(schema, JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** PostgreSQL's microsecond timestamps as text (`2026-11-22T19:00:00.123456Z`), which a JS Date would round. */
export const MicroTimestampSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  v.check((value) => {
    const parsed = new Date(value);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 19) === value.slice(0, 19) && parsed.getUTCFullYear() >= 1;
  }),
);

/** SQL expression text for a column in the format above. */
export const MICRO_FORMAT = 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"';
