import { createSlots, type Slots } from '../../shared/db/slots';
import { warmUpGate } from '../../shared/db/warmUp';

/** What became of one caller of `take`: started, refused, or still waiting. */
function caller(slots: Slots): { outcome: () => 'started' | 'refused' | 'waiting' } {
  let outcome: 'started' | 'refused' | 'waiting' = 'waiting';
  slots.take(
    () => (outcome = 'started'),
    () => (outcome = 'refused'),
  );
  return { outcome: () => outcome };
}

describe('pool slots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('starts at most `max` callers, lets the next in line start on each release, and refuses one still waiting after the wait', () => {
    const slots = createSlots({ max: 2, maxWaitMs: 100 });
    const [first, second, third, fourth] = [caller(slots), caller(slots), caller(slots), caller(slots)];
    expect([first, second, third, fourth].map((c) => c.outcome())).toEqual(['started', 'started', 'waiting', 'waiting']);

    slots.release();
    expect(third.outcome()).toBe('started');
    jest.advanceTimersByTime(100);
    expect(fourth.outcome()).toBe('refused');

    // The refused caller's place is not held: the next release frees a slot for a newcomer.
    slots.release();
    expect(caller(slots).outcome()).toBe('started');
    expect(caller(slots).outcome()).toBe('waiting');
  });

  it('without a wait bound, waits as long as it takes', () => {
    const slots = createSlots({ max: 1 });
    caller(slots);
    const waiting = caller(slots);
    jest.advanceTimersByTime(60_000);
    expect(waiting.outcome()).toBe('waiting');
    slots.release();
    expect(waiting.outcome()).toBe('started');
  });
});

describe('the warm-up gate', () => {
  it('hands out no slot until the one probe has answered, then all of them', async () => {
    let answer!: () => void;
    const probe = jest.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    const slots = createSlots({ max: 3 }, warmUpGate(probe));
    const callers = [caller(slots), caller(slots)];
    expect(callers.map((c) => c.outcome())).toEqual(['waiting', 'waiting']);
    expect(probe).toHaveBeenCalledTimes(1);

    answer();
    await new Promise((resolve) => setImmediate(resolve));
    expect(callers.map((c) => c.outcome())).toEqual(['started', 'started']);
    expect(caller(slots).outcome()).toBe('started');
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('after a failed probe lets the waiting callers go on, and probes again for the next', async () => {
    const probe = jest.fn<Promise<void>, []>().mockRejectedValueOnce(new Error('down')).mockResolvedValue(undefined);
    const slots = createSlots({ max: 3 }, warmUpGate(probe));
    const first = caller(slots);
    await new Promise((resolve) => setImmediate(resolve));
    expect(first.outcome()).toBe('started');

    const second = caller(slots);
    expect(second.outcome()).toBe('waiting');
    await new Promise((resolve) => setImmediate(resolve));
    expect(second.outcome()).toBe('started');
    expect(probe).toHaveBeenCalledTimes(2);
  });
});
