import { appointment, leaderPath, lookupQuery, peoplePath, pickLabel, type Person } from '../../portal/src/leaderChoice';

const member: Person = { userId: 'demo-member-1', displayName: 'Mia Muster', initials: 'MM', lastSeenAt: '2026-11-26T18:00:00Z' };

describe('the leader picker: only a person the lookup found is appointed', () => {
  it('looks up 2 to 50 characters, trimmed', () => {
    expect(lookupQuery(' m ')).toEqual({ ok: false, reason: 'tooShort' });
    expect(lookupQuery(' mi ')).toEqual({ ok: true, query: 'mi' });
    expect(lookupQuery('x'.repeat(80))).toEqual({ ok: true, query: 'x'.repeat(50) });
    expect(peoplePath('Mia M')).toBe('/api/admin/people?query=Mia+M&limit=8');
  });

  it('refuses a typed id, even one that looks right, and a typo of a real one', () => {
    expect(appointment(null, 'demo-memebr-1', new Set())).toEqual({ ok: false, reason: 'notPicked' });
    expect(appointment(null, 'demo-member-1', new Set())).toEqual({ ok: false, reason: 'notPicked' });
  });

  it('appoints the picked person while the box shows the pick, not after the text was changed', () => {
    expect(appointment(member, pickLabel(member), new Set())).toEqual({ ok: true, person: member });
    expect(appointment(member, `${pickLabel(member)}x`, new Set())).toEqual({ ok: false, reason: 'notPicked' });
    expect(appointment(member, 'demo-memebr-1', new Set())).toEqual({ ok: false, reason: 'notPicked' });
  });

  it('shows a person without a name by their id alone, and appoints them when picked', () => {
    const nameless: Person = { ...member, userId: 'demo-member-2', displayName: null, initials: null };
    expect(pickLabel(nameless)).toBe('demo-member-2');
    expect(pickLabel(member)).toBe('Mia Muster (demo-member-1)');
    expect(appointment(nameless, ' demo-member-2 ', new Set())).toEqual({ ok: true, person: nameless });
  });

  it('does not appoint a leader again', () => {
    expect(appointment(member, pickLabel(member), new Set(['demo-member-1']))).toEqual({ ok: false, reason: 'alreadyLeader' });
  });

  it('names the person and the club in the path, encoded', () => {
    expect(leaderPath('club 1', 'a/b')).toBe('/api/clubs/club%201/leaders/a%2Fb');
  });
});
