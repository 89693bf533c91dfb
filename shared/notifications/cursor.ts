import * as v from 'valibot';
import { cursorCodec } from '../paging/cursor';
import { MicroTimestampSchema } from '../paging/microTimestamp';

/** The position (created_at with PostgreSQL's microseconds, seq) of the last entry of an inbox page. */
export interface InboxPosition {
  createdAt: string;
  seq: number;
}

export const inboxCursor = cursorCodec(
  'notifications.inbox',
  v.pipe(
    v.tuple([MicroTimestampSchema, v.pipe(v.number(), v.safeInteger(), v.minValue(1))]),
    v.transform(([createdAt, seq]): InboxPosition => ({ createdAt, seq })),
  ),
);
