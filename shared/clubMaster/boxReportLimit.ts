import { BusyError } from '../errors/domainErrors';

export interface BoxReportLimitOptions {
  /** Reports of one box written at the same time; the rest wait their turn. */
  maxRunning: number;
  /** Reports of one box allowed to wait; one more is refused at once. */
  maxWaiting: number;
  /** Seconds a refused box is asked to wait. */
  retryAfterSeconds: number;
}

/**
 * Bounds the database work one box can start: at most `maxRunning` of its reports hold a pool
 * connection at a time, so a box sending dozens of reports at once cannot starve user traffic.
 * Per process (each Functions instance has its own pool, so the bound is per pool too).
 */
export function createBoxReportLimit({ maxRunning, maxWaiting, retryAfterSeconds }: BoxReportLimitOptions) {
  const boxes = new Map<string, { running: number; waiting: Array<() => void> }>();

  async function acquire(boxId: string): Promise<void> {
    const box = boxes.get(boxId) ?? { running: 0, waiting: [] };
    boxes.set(boxId, box);
    if (box.running < maxRunning) {
      box.running += 1;
      return;
    }
    if (box.waiting.length >= maxWaiting) {
      throw new BusyError('This box has too many reports in progress; send the report again later.', retryAfterSeconds, {
        code: 'box_report_limit',
      });
    }
    // The slot is handed over by release(), so `running` stays counted.
    await new Promise<void>((resolve) => box.waiting.push(resolve));
  }

  function release(boxId: string): void {
    const box = boxes.get(boxId);
    if (!box) return;
    const next = box.waiting.shift();
    if (next) return next();
    box.running -= 1;
    if (box.running === 0) boxes.delete(boxId);
  }

  return {
    /**
     * Waits for one of the box's turns (or throws the BusyError when its waiting places are
     * full) and resolves to the turn's release; releasing twice hands on only one turn.
     */
    async admit(boxId: string): Promise<() => void> {
      await acquire(boxId);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        release(boxId);
      };
    },
    /** Runs `work` in one of the box's turns. */
    async run<T>(boxId: string, work: () => Promise<T>): Promise<T> {
      await acquire(boxId);
      try {
        return await work();
      } finally {
        release(boxId);
      }
    },
  };
}
