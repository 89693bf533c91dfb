import { initialsOf } from '../../shared/people/initials';

describe('initials of a name', () => {
  it.each([
    ['Anna Maria Schütz', 'AS'],
    ['anna schütz', 'AS'],
    ['Ümit', 'Ü'],
    ['  Jörg   Östermann  ', 'JÖ'],
    ['Дмитрий Иванов', 'ДИ'],
    ['Γιώργος Παπαδόπουλος', 'ΓΠ'],
    ['山田 太郎', '山太'],
    ['(Toni) Berger', 'TB'],
    ['Demo Member 1', 'D1'],
    ['e\u0301mile zola', 'ÉZ'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });

  it('never splits a character made of two code units', () => {
    expect(initialsOf('𝐀lice 𝐁ob')).toBe('𝐀𝐁');
    expect(initialsOf('🎯 🎯')).toBe('🎯');
  });
});
