/**
 * A counting semaphore with a bounded wait: at most `max` holders at a time, a caller that finds
 * none free waits in line, and one still waiting after `maxWaitMs` is refused. It knows nothing of
 * databases; shared/db/poolGuard.ts gives it a pool's statements and transactions.
 */
export interface Slots {
  /** Calls `start` once a slot is held (the holder then calls `release`), or `refuse` after the wait: exactly one of the two. */
  take(start: () => void, refuse: () => void): void;
  release(): void;
}

/** Whether slots may be handed out yet, and a way to hear when they may (shared/db/warmUp.ts). */
export interface Gate {
  readonly open: boolean;
  whenOpen(next: () => void): void;
}

const ALWAYS_OPEN: Gate = { open: true, whenOpen: (next) => next() };

export interface SlotOptions {
  max: number;
  /** Milliseconds a caller may wait for a slot before it is refused; unset: no bound. */
  maxWaitMs?: number;
}

interface Waiter {
  grant(): void;
  gone: boolean;
}

export function createSlots({ max, maxWaitMs }: SlotOptions, gate: Gate = ALWAYS_OPEN): Slots {
  let free = max;
  const waiters: Waiter[] = [];

  function release(): void {
    for (;;) {
      const next = waiters.shift();
      if (!next) {
        free += 1;
        return;
      }
      if (!next.gone) return next.grant();
    }
  }

  function take(start: () => void, refuse: () => void): void {
    // The common case under load: a free slot behind an open gate needs no timer and no waiter.
    if (gate.open && free > 0) {
      free -= 1;
      return start();
    }
    let decided = false;
    let waiter: Waiter | undefined;
    const timer =
      maxWaitMs === undefined
        ? undefined
        : setTimeout(() => {
            if (decided) return;
            decided = true;
            if (waiter) waiter.gone = true;
            refuse();
          }, maxWaitMs);
    timer?.unref();
    const grant = () => {
      // Refused meanwhile: the slot goes on to the next in line.
      if (decided) return release();
      decided = true;
      clearTimeout(timer);
      start();
    };
    gate.whenOpen(() => {
      if (decided) return;
      if (free > 0) {
        free -= 1;
        return grant();
      }
      waiter = { grant, gone: false };
      waiters.push(waiter);
    });
  }

  return { take, release };
}
