import { randomBytes } from 'node:crypto';
import type { EventHubHandler } from '@azure/functions';
import { functionDefinitions } from '../../functions/definitions';
import { overrideSettings } from '../../shared/config/settings';
import { getSql } from '../../shared/db/client';
import { useIngestTablesExclusively } from './exclusive';
import { event, hitBody, hitEvent, invocationFor, uniqueClub } from './fixtures';

/** A quarantine reached through the `ingest` function tells the platform admins once, through their inbox. */
const definition = functionDefinitions.find((candidate) => candidate.name === 'ingest');
if (definition?.kind !== 'eventHub') throw new Error('the ingest function is not registered');
const handler = definition.options.handler as EventHubHandler;

const sql = () => getSql();
const admins = [`admin-${randomBytes(4).toString('hex')}`, `admin-${randomBytes(4).toString('hex')}`];

useIngestTablesExclusively();

let restoreSettings = () => {};
beforeAll(() => {
  restoreSettings = overrideSettings({
    SVC_INGEST_STATUS_ENABLED: 'true',
    WEBSITE_INSTANCE_ID: `test-${randomBytes(4).toString('hex')}`,
    PLATFORM_ADMIN_USER_IDS: admins.join(','),
  });
});

afterAll(() => restoreSettings());

const inboxOf = (userId: string) =>
  sql()<{ title: string; tone: string }[]>`select title, tone from notification where user_id = ${userId} order by created_at`;

it('announces a quarantine to each platform admin once, however many batches report it', async () => {
  const club = uniqueClub();
  const bad = (lsn: number) => event(hitBody({ id: 1, clubId: club, lsn }), { topic: `club.${club}.hits`, clubId: '1' });
  const deliver = async (events: ReturnType<typeof event>[]) => {
    await handler(
      events.map((item) => item.body),
      invocationFor(events),
    );
  };

  await deliver([bad(1), bad(2)]);
  expect(await inboxOf(admins[0]!)).toEqual([]);

  await deliver([bad(3), bad(4), bad(5), hitEvent({ id: 2, clubId: uniqueClub(), lsn: 1 })]);
  await deliver([bad(6)]);

  for (const admin of admins) {
    const inbox = await inboxOf(admin);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]?.tone).toBe('error');
  }
});
