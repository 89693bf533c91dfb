import { capturesScoreData } from '../../shared/boxConnector/scoreCapture';

const debezium = (extra: Record<string, string> = {}) => ({
  'connector.class': 'io.debezium.connector.postgresql.PostgresConnector',
  ...extra,
});

describe('which connectors the consent gate holds', () => {
  it('holds a Debezium connector that captures a score table, or every table', () => {
    expect(capturesScoreData(debezium({ 'table.include.list': 'public.hits,public.shooters' }))).toBe(true);
    expect(capturesScoreData(debezium({ 'table.include.list': 'public.lanes, public\\.sho.*' }))).toBe(true);
    expect(capturesScoreData(debezium({ 'table.include.list': 'PUBLIC.HITS' }))).toBe(true);
    expect(capturesScoreData(debezium())).toBe(true);
    expect(capturesScoreData(debezium({ 'table.whitelist': 'public.hits' }))).toBe(true);
    // A pattern JavaScript cannot read may match on the Java side: held.
    expect(capturesScoreData(debezium({ 'table.include.list': 'public.(?<x' }))).toBe(true);
  });

  it('leaves a Debezium connector of other tables alone', () => {
    expect(capturesScoreData(debezium({ 'table.include.list': 'public.lanes,public.hitsarchive_settings' }))).toBe(false);
  });

  it('holds any other connector whose configuration names a score table', () => {
    expect(
      capturesScoreData({ 'connector.class': 'io.confluent.connect.jdbc.JdbcSourceConnector', 'table.whitelist': 'lanes, hits' }),
    ).toBe(true);
    expect(capturesScoreData({ 'connector.class': 'FileStreamSource', file: '/var/log/hits.log', topic: 'logs' })).toBe(false);
  });
});
