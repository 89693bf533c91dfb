import { getSql } from '../../shared/db/client';
import { runFreshnessCheck } from '../../shared/freshness/freshnessTimer';
import { listFreshnessHistory } from '../../shared/freshness/freshnessState';
import { listInbox } from '../../shared/notifications/inboxService';
import { defaultPreferences, mergePreferences } from '../../shared/notifications/preferences';
import { savePreferences } from '../../shared/notifications/preferencesRepository';
import { createLogger } from '../../shared/log/logger';
import { useFreshnessCheckExclusively } from './exclusive';
import { addHit, createFreshnessClub } from './fixtures';
import { addEdgeToken } from '../support/fixtures';

const sql = () => getSql();
// Default plan: Wednesday 19 November 2025 18:00-20:00 CET (17:00Z-19:00Z), due 20 November 01:00Z. All dates lie
// in the past, so no club of this file looks like one with arrivals in the future to the endpoints' real clock.
const DUE_19 = new Date('2025-11-20T01:00:00Z');
const LATER_19 = new Date('2025-11-20T06:00:00Z');
const DUE_26 = new Date('2025-11-27T01:00:00Z');

function capturingLog() {
  const entries: Record<string, unknown>[] = [];
  return {
    log: createLogger({ minLevel: 'debug', sink: (_level, line) => entries.push(JSON.parse(line) as Record<string, unknown>) }),
    entries,
  };
}

async function inboxOf(userId: string, language: 'de' | 'en' = 'en') {
  const page = await listInbox(sql(), userId, { limit: 50, unreadOnly: false, language });
  return page.items.map(({ title, body, tone }) => ({ title, body, tone }));
}

// The freshness check evaluates every club at its instant: files that run it take turns.
useFreshnessCheckExclusively();

describe('freshnessCheck timer', () => {
  it('records status changes only, with the evening evaluated, and since when a status holds', async () => {
    const club = await createFreshnessClub(sql());
    const { log, entries } = capturingLog();
    await addHit(sql(), club.vereinsId!, '2025-11-12T18:30:00Z');

    await runFreshnessCheck(sql(), new Date('2025-11-19T12:00:00Z'), log); // evening of the 12th: ok
    await runFreshnessCheck(sql(), DUE_19, log); // evening of the 19th: nothing arrived, stale
    await runFreshnessCheck(sql(), LATER_19, log); // still stale: no new history row

    const history = await listFreshnessHistory(sql(), club.clubId);
    expect(
      history.map(({ status, previousStatus, eveningStart, changedAt }) => [
        status,
        previousStatus,
        eveningStart?.toISOString(),
        changedAt.toISOString(),
      ]),
    ).toEqual([
      ['stale', 'ok', '2025-11-19T17:00:00.000Z', DUE_19.toISOString()],
      ['ok', null, '2025-11-12T17:00:00.000Z', '2025-11-19T12:00:00.000Z'],
    ]);
    const [state] = await sql()`select status, since, evaluated_at from club_freshness_state where club_id = ${club.clubId}`;
    expect(state).toEqual({ status: 'stale', since: DUE_19, evaluated_at: LATER_19 });
    expect(entries.filter((entry) => entry['event'] === 'freshness_status_changed' && entry['clubId'] === club.clubId)).toHaveLength(2);
  });

  it('tells the leaders (not the members) once per stale evening, and once when data arrives again', async () => {
    const club = await createFreshnessClub(sql(), { leaders: 2, members: 1 });
    await addEdgeToken(sql(), club.clubId, '2025-11-20T00:30:00Z');
    await addHit(sql(), club.vereinsId!, '2025-11-12T18:30:00Z');
    const { log } = capturingLog();

    await runFreshnessCheck(sql(), DUE_19, log);
    await runFreshnessCheck(sql(), LATER_19, log);
    for (const leader of club.leaders) {
      const inbox = await inboxOf(leader);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ title: `No shot data from ${club.name}`, tone: 'warning' });
      expect(inbox[0]!.body).toContain('Wednesday, 19 November 2025');
      expect(inbox[0]!.body).toContain('default plan');
      // The box called after the evening ended, no starter lists: nothing was shot.
      expect(inbox[0]!.body).toContain('nothing was shot');
      // The same entry as a German reader sees it.
      const [german] = await inboxOf(leader, 'de');
      expect(german?.title).toBe(`Keine Schussdaten von ${club.name}`);
      expect(german?.body).toContain('Mittwoch, 19. November 2025');
      expect(german?.body).toContain('kein Trainingsplan hinterlegt');
      expect(german?.body).toContain('Es wurde nicht geschossen');
    }
    expect(await inboxOf(club.members[0]!)).toEqual([]);

    // Next week still nothing: a new evening, a new notice.
    await runFreshnessCheck(sql(), DUE_26, log);
    expect(await inboxOf(club.leaders[0]!)).toHaveLength(2);

    // Data arrives: one success notice, not repeated.
    await addHit(sql(), club.vereinsId!, '2025-11-27T09:00:00Z');
    await runFreshnessCheck(sql(), new Date('2025-11-27T10:00:00Z'), log);
    await runFreshnessCheck(sql(), new Date('2025-11-27T11:00:00Z'), log);
    const inbox = await inboxOf(club.leaders[0]!);
    expect(inbox.map((entry) => entry.tone)).toEqual(['success', 'warning', 'warning']);
    expect(inbox[0]!.title).toBe(`Shot data from ${club.name} arrives again`);
  });

  it('respects the leader’s preferences: the inbox entry always, push held during quiet hours', async () => {
    const club = await createFreshnessClub(sql(), { leaders: 1 });
    const leader = club.leaders[0]!;
    await savePreferences(
      sql(),
      leader,
      mergePreferences(defaultPreferences(), { dnd: { enabled: true, from: '00:00', to: '07:00' }, email: { enabled: false } }),
      'Europe/Berlin',
    );
    await addHit(sql(), club.vereinsId!, '2025-11-12T18:30:00Z');
    await runFreshnessCheck(sql(), DUE_19, capturingLog().log);
    expect(await inboxOf(leader)).toHaveLength(1);
    const outbox = await sql()`select channel, deliver_after as "deliverAfter" from notification_outbox where user_id = ${leader}`;
    // 01:00Z is 02:00 in Berlin, inside 00:00-07:00: push waits until 07:00 CET = 06:00Z; no email.
    expect(outbox).toEqual([{ channel: 'push', deliverAfter: new Date('2025-11-20T06:00:00Z') }]);
  });

  it('sends no notice for a club that never delivered (unknown) or whose signal is unusable (error)', async () => {
    const never = await createFreshnessClub(sql(), { leaders: 1 });
    const future = await createFreshnessClub(sql(), { leaders: 1 });
    await addHit(sql(), future.vereinsId!, '2025-11-21T00:00:00Z');
    await runFreshnessCheck(sql(), DUE_19, capturingLog().log);
    expect(await inboxOf(never.leaders[0]!)).toEqual([]);
    expect(await inboxOf(future.leaders[0]!)).toEqual([]);
    const states = await sql()`select club_id, status from club_freshness_state where club_id in ${sql()([never.clubId, future.clubId])}`;
    expect(new Map(states.map((row) => [row['club_id'], row['status']]))).toEqual(
      new Map([
        [never.clubId, 'unknown'],
        [future.clubId, 'error'],
      ]),
    );
  });

  it('skips inactive clubs and clubs without a club number', async () => {
    const inactive = await createFreshnessClub(sql(), { status: 'inactive' });
    const unnumbered = await createFreshnessClub(sql(), { vereinsId: null });
    await runFreshnessCheck(sql(), DUE_19, capturingLog().log);
    const states = await sql()`select club_id from club_freshness_state where club_id in ${sql()([inactive.clubId, unnumbered.clubId])}`;
    expect(states).toEqual([]);
  });
});
