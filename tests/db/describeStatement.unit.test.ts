import { describeStatement } from '../../shared/db/querySpan';

/** A statement as the tagged template hands it over: the strings between the parameters. */
function statement(strings: TemplateStringsArray, ..._values: unknown[]): TemplateStringsArray {
  return strings;
}

describe('the name of a statement span', () => {
  it('names a select by the table its outer query reads, not by a subquery ahead of it in the select list', () => {
    const described = describeStatement(statement`
      select id, title, coalesce((select unread from notification_unread_count where user_id = ${1}), 0) as unread
      from notification
      where user_id = (select ${2}::text)
      order by created_at desc limit (select ${3}::int)`);
    expect(described.name).toBe('SELECT notification');
    expect(described.table).toBe('notification');
  });

  it('keeps naming plain statements by their table', () => {
    expect(describeStatement(statement`select 1 from "challenge" where id = ${1}`).name).toBe('SELECT challenge');
    expect(describeStatement(statement`insert into notification (user_id) values (${1})`).name).toBe('INSERT notification');
    expect(describeStatement(statement`update only club set name = ${1}`).name).toBe('UPDATE club');
    expect(describeStatement(statement`delete from push_registration where id = ${1}`).name).toBe('DELETE push_registration');
  });

  it('names a statement with common table expressions by its main statement, at the main statement’s level', () => {
    const described = describeStatement(statement`
      with ranked as (select user_id from challenge_participation where challenge_id = ${1})
      select (select count(*) from club) as clubs, user_id from ranked`);
    expect(described.operation).toBe('SELECT');
    expect(described.name).toBe('SELECT ranked');
  });

  it('names a select whose only table is in a subquery by that table', () => {
    expect(describeStatement(statement`select exists (select 1 from club where id = ${1}) as found`).name).toBe('SELECT club');
  });

  it('does not describe text that is not a tagged template (it may hold literal values)', () => {
    const described = describeStatement('select * from club where id = 7');
    expect(described.name).toBe('QUERY');
    expect(described.text).toBeUndefined();
  });

  it("does not describe sql.unsafe's text either: the driver keeps it as a one-element array without raw strings", () => {
    const described = describeStatement(['select * from club where id = 7']);
    expect(described.name).toBe('QUERY');
    expect(described.text).toBeUndefined();
  });
});
