import { digestsMatch, generateInvitationCode, hashInvitationCode, normaliseInvitationCode } from '../../shared/clubs/invitationCode';

describe('invitation codes', () => {
  it('are four groups of four Crockford base32 characters, different every time', () => {
    const codes = new Set(Array.from({ length: 200 }, () => generateInvitationCode()));
    expect(codes.size).toBe(200);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  });

  it('forgive case, separators and look-alike letters, and refuse what cannot be a code', () => {
    expect(normaliseInvitationCode('abcd-efgh-jkmn-pqrs')).toBe('ABCDEFGHJKMNPQRS');
    expect(normaliseInvitationCode(' 0OiL 1234 5678 9ABC ')).toBe('0011123456789ABC');
    expect(normaliseInvitationCode('ABCD-EFGH-JKMN-PQR')).toBeUndefined();
    expect(normaliseInvitationCode('ABCD-EFGH-JKMN-PQRU')).toBeUndefined();
    expect(normaliseInvitationCode('ABCD-EFGH-JKMN-PQR!')).toBeUndefined();
  });

  it('are stored as a SHA-256 that matches only the same code', () => {
    const code = normaliseInvitationCode(generateInvitationCode())!;
    expect(hashInvitationCode(code)).toHaveLength(32);
    expect(digestsMatch(hashInvitationCode(code), hashInvitationCode(code))).toBe(true);
    const other = normaliseInvitationCode(generateInvitationCode())!;
    expect(digestsMatch(hashInvitationCode(code), hashInvitationCode(other))).toBe(false);
    expect(digestsMatch(hashInvitationCode(code), Buffer.alloc(16))).toBe(false);
  });
});
