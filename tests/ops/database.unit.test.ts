import { describeDatabaseUrl } from '../../ops/database';

describe('the database a command names', () => {
  it('shows user, host, port and database, never the password', () => {
    const shown = describeDatabaseUrl('postgres://svc%40x:s3cr%3Et@db.example.net:6432/club_data?sslmode=require');
    expect(shown).toBe('PostgreSQL svc@x@db.example.net:6432/club_data');
    expect(shown).not.toContain('s3cr');
  });

  it('names no part of a value that is not a URL', () => {
    expect(describeDatabaseUrl('host=db password=s3cret')).toBe('PostgreSQL (DATABASE_URL is not a URL)');
  });
});
