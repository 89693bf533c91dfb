import { remindEndingChallenges } from '../../shared/challenges/endReminders';
import { leaveChallenge } from '../../shared/challenges/leave';
import { joinChallenge } from '../../shared/challenges/participationRepository';
import { getSql } from '../../shared/db/client';
import { listInbox } from '../../shared/notifications/inboxService';
import { makeChallenge, unique } from './support';

// A stretch of time no other test's participation ends in: the reminder sweep is global.
const joined = new Date('2018-05-01T06:00:00Z');
const hours = (n: number) => new Date(joined.getTime() + n * 3_600_000);

async function inbox(userId: string, language: 'de' | 'en') {
  return (await listInbox(getSql(), userId, { limit: 10, unreadOnly: false, language })).items.map((item) => ({
    title: item.title,
    body: item.body,
  }));
}

// The members of this file; their attempts are cancelled at its end, so another file's expiry
// sweep (which fails every active attempt past its deadline) never finds them.
const members: string[] = [];
const member = (name: string) => {
  const id = unique(name);
  members.push(id);
  return id;
};
afterAll(async () => {
  await getSql()`update challenge_participation set status = 'cancelled' where user_id = any(${members}) and status = 'active'`;
});

describe('a challenge ending within 24 hours', () => {
  it('reminds each member taking part once, however often the sweep runs, and nobody whose end is further off', async () => {
    const soon = await makeChallenge({ title: 'Last call', titles: { de: 'Letzter Aufruf', en: 'Last call' }, durationDays: 2 });
    const later = await makeChallenge({ title: 'Plenty of time', durationDays: 5 });
    const taking = member('member');
    await joinChallenge(getSql(), taking, soon.id, {}, joined);
    await joinChallenge(getSql(), taking, later.id, {}, joined);

    // 30 hours before the end: not yet.
    expect(await remindEndingChallenges(getSql(), hours(18))).toBe(0);
    const runs = await Promise.all([hours(30), hours(30), hours(31)].map((now) => remindEndingChallenges(getSql(), now)));
    expect(runs.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await remindEndingChallenges(getSql(), hours(40))).toBe(0);

    expect(await inbox(taking, 'de')).toEqual([
      { title: 'Noch 24 Stunden: Letzter Aufruf', body: 'Deine Challenge endet am 03.05.2018, 08:00. Ein Training jetzt zählt noch.' },
    ]);
    expect(await inbox(taking, 'en')).toEqual([
      { title: '24 hours left: Last call', body: 'Your challenge ends on 3 May 2018, 08:00. A training session now still counts.' },
    ]);
    const [stored] = await getSql()<
      { kind: string; category: string }[]
    >`select kind, category from notification where user_id = ${taking}`;
    expect(stored).toEqual({ kind: 'reminder', category: 'training' });
  });

  it('reminds a member who left and joined again no second time, and one who left not at all', async () => {
    const challenge = await makeChallenge({ title: 'Comeback', durationDays: 2 });
    const rejoining = member('rejoining');
    const gone = member('gone');
    const first = await joinChallenge(getSql(), rejoining, challenge.id, {}, joined);
    const other = await joinChallenge(getSql(), gone, challenge.id, {}, joined);
    await leaveChallenge(getSql(), gone, other.id);
    expect(await remindEndingChallenges(getSql(), hours(30))).toBe(1);
    await leaveChallenge(getSql(), rejoining, first.id);
    // The fresh attempt ends 48 hours after it started: 24 hours before that, no second reminder.
    await joinChallenge(getSql(), rejoining, challenge.id, {}, hours(31));
    expect(await remindEndingChallenges(getSql(), hours(61))).toBe(0);
    expect(await inbox(rejoining, 'en')).toHaveLength(1);
    expect(await inbox(gone, 'en')).toEqual([]);
  });
});
