import { InvocationContext, type Timer } from '@azure/functions';
import { overrideSettings } from '../../shared/config/settings';
import { declareTimer } from '../../shared/host/bindings';
import { defineTimer } from '../../shared/host/definition';

const timer: Timer = { isPastDue: false, schedule: { adjustForDST: true }, scheduleStatus: { last: '', next: '', lastUpdated: '' } };

/** Runs a timer defined with `idle` once with `outcome`; the `timer_completed` lines it wrote (at the default level, info). */
async function completedLines(outcome: Record<string, unknown>): Promise<string[]> {
  const lines: { level: string; line: string }[] = [];
  const definition = defineTimer(declareTimer('tick', '%TICK%'), () => Promise.resolve(outcome), {
    idle: (result) => result?.['claimed'] === 0,
  });
  if (definition.kind !== 'timer') throw new Error('not a timer');
  const context = new InvocationContext({
    invocationId: 'tick-1',
    functionName: 'tick',
    logHandler: (level, ...args) => lines.push({ level, line: String(args[0]) }),
  });
  await definition.options.handler(timer, context);
  return lines.filter((entry) => entry.line.includes('"timer_completed"')).map((entry) => entry.level);
}

describe('a timer that runs every few seconds', () => {
  // At the production level, whatever the test run's own.
  let restore: () => void;
  beforeAll(() => (restore = overrideSettings({ LOG_LEVEL: 'info' })));
  afterAll(() => restore());

  it('writes no completion line for a run that found nothing to do (debug level), and one for a run that did work', async () => {
    expect(await completedLines({ claimed: 0 })).toEqual([]);
    expect(await completedLines({ claimed: 3 })).toEqual(['information']);
  });
});
