/** Where the agent reads the time; tests pass a fixed one so no assertion depends on the wall clock. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
