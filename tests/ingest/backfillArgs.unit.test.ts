import { parseBackfillArgs } from '../../shared/ingest/backfillArgs';

describe('backfill command arguments', () => {
  it('reads club:record pairs and the options', () => {
    expect(parseBackfillArgs('records', ['4711:12', '4711:13', '4712:shooter-9', '--group=replay-1', '--new-group', '--force'])).toEqual({
      ok: true,
      args: {
        selection: {
          kind: 'records',
          records: [
            { clubId: '4711', recordId: '12' },
            { clubId: '4711', recordId: '13' },
            { clubId: '4712', recordId: 'shooter-9' },
          ],
        },
        group: 'replay-1',
        fresh: true,
        force: true,
      },
    });
  });

  it('reads club ids for the shooters backfill; without --group the setting decides', () => {
    expect(parseBackfillArgs('shooters', ['4711', '4712', '4711'])).toEqual({
      ok: true,
      args: { selection: { kind: 'shooters', clubIds: ['4711', '4712'] }, group: undefined, fresh: false, force: false },
    });
  });

  it.each([
    ['records', [], /at least one <clubId>:<recordId>/],
    ['records', ['4711'], /"4711" is not <clubId>:<recordId>/],
    ['records', [':12'], /is not <clubId>:<recordId>/],
    ['shooters', [], /at least one club id/],
    ['shooters', ['club/1'], /"club\/1" is not a club id/],
    ['shooters', ['4711', '--group=a b'], /--group/],
    ['shooters', ['4711', '--fresh'], /unknown option --fresh/],
  ] as const)('%s %p is refused, naming the problem', (kind, argv, message) => {
    const parsed = parseBackfillArgs(kind, argv);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(message);
  });
});
