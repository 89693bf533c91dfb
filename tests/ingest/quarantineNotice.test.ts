import { randomUUID } from 'node:crypto';
import { getSql } from '../../shared/db/client';
import { notifyQuarantine, type QuarantineContext } from '../../shared/ingest/quarantineNotice';
import { listInbox } from '../../shared/notifications/inboxService';

const sql = () => getSql();
const NOW = new Date('2026-11-19T08:00:00Z');

function quarantine(overrides: Partial<QuarantineContext> = {}): QuarantineContext {
  return {
    quarantineSince: new Date('2026-11-19T07:55:00Z'),
    quarantineTopic: `club.${randomUUID().slice(0, 8)}.hits`,
    quarantineClubId: '1001',
    quarantineEntity: 'hit',
    quarantineReason: 'club_scope_mismatch',
    ...overrides,
  };
}

async function inboxOf(userId: string) {
  return (await listInbox(sql(), userId, { limit: 50, unreadOnly: false })).items;
}

describe('notifyQuarantine', () => {
  it('notifies every platform admin once per quarantine, through the inbox', async () => {
    const admins = [`admin-${randomUUID()}`, `admin-${randomUUID()}`];
    const context = quarantine();
    expect(await notifyQuarantine(sql(), context, admins, NOW)).toBe(2);
    // The ingest status reports the same quarantine again on every heartbeat: no second notice.
    expect(await notifyQuarantine(sql(), { ...context }, admins, NOW)).toBe(0);
    for (const admin of admins) {
      const inbox = await inboxOf(admin);
      expect(inbox).toHaveLength(1);
      expect(inbox[0]).toMatchObject({ title: 'Ingest quarantine', tone: 'error', read: false });
      expect(inbox[0]!.body).toContain(context.quarantineTopic);
      expect(inbox[0]!.body).toContain('club_scope_mismatch');
    }
  });

  it('a new quarantine of the same path (a later since) is a new notice', async () => {
    const admin = `admin-${randomUUID()}`;
    const first = quarantine();
    await notifyQuarantine(sql(), first, [admin], NOW);
    await notifyQuarantine(sql(), { ...first, quarantineSince: new Date('2026-11-20T07:00:00Z') }, [admin], NOW);
    expect(await inboxOf(admin)).toHaveLength(2);
  });

  it('with no platform admin configured, notifies nobody and keeps the quarantine unannounced', async () => {
    const context = quarantine();
    expect(await notifyQuarantine(sql(), context, [], NOW)).toBe(0);
    const admin = `admin-${randomUUID()}`;
    expect(await notifyQuarantine(sql(), context, [admin], NOW)).toBe(1);
  });

  it('gives the claim back when the notice could not be written, so the next report tries again', async () => {
    const context = quarantine();
    const admin = `admin-${randomUUID()}`;
    // A title the inbox refuses (NUL cannot be stored in text) makes notify fail after the claim.
    await expect(notifyQuarantine(sql(), { ...context, quarantineReason: 'bad\u0000reason' }, [admin], NOW)).rejects.toThrow();
    expect(await notifyQuarantine(sql(), context, [admin], NOW)).toBe(1);
    expect(await inboxOf(admin)).toHaveLength(1);
  });
});
