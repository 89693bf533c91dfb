import { createBoxReportLimit } from '../../shared/clubMaster/boxReportLimit';
import { BusyError } from '../../shared/errors/domainErrors';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('createBoxReportLimit', () => {
  it('runs at most maxRunning reports of a box at once, queues maxWaiting, refuses the next with Retry-After', async () => {
    const limit = createBoxReportLimit({ maxRunning: 2, maxWaiting: 1, retryAfterSeconds: 7 });
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limit.run('box-a', async () => {
        started.push(i);
        await g.opened;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);

    const refused = limit.run('box-a', () => Promise.resolve(99));
    await expect(refused).rejects.toThrow(BusyError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 7, code: 'box_report_limit' });

    // Another box is not held up by the first.
    await expect(limit.run('box-b', () => Promise.resolve('b'))).resolves.toBe('b');

    gates[0]!.open();
    await runs[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    gates[1]!.open();
    gates[2]!.open();
    await expect(Promise.all(runs)).resolves.toEqual([0, 1, 2]);
  });

  it('frees the slot when a report fails', async () => {
    const limit = createBoxReportLimit({ maxRunning: 1, maxWaiting: 0, retryAfterSeconds: 1 });
    await expect(limit.run('box', () => Promise.reject(new Error('db down')))).rejects.toThrow('db down');
    await expect(limit.run('box', () => Promise.resolve('ok'))).resolves.toBe('ok');
  });

  it('admit hands out turns whose release, however often called, frees one turn', async () => {
    const limit = createBoxReportLimit({ maxRunning: 1, maxWaiting: 1, retryAfterSeconds: 3 });
    const first = await limit.admit('box');
    let secondAdmitted = false;
    const second = limit.admit('box').then((done) => {
      secondAdmitted = true;
      return done;
    });
    await expect(limit.admit('box')).rejects.toMatchObject({ retryAfterSeconds: 3, code: 'box_report_limit' });
    expect(secondAdmitted).toBe(false);
    first();
    const secondDone = await second;
    // A second call of the first release must not hand out a further turn while the second runs.
    first();
    let thirdAdmitted = false;
    const third = limit.admit('box').then((done) => {
      thirdAdmitted = true;
      return done;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdAdmitted).toBe(false);
    secondDone();
    (await third)();
    expect(thirdAdmitted).toBe(true);
  });
});
