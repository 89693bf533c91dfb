/**
 * Lets whatever else is ready (other requests' callbacks, socket reads) run before the caller
 * continues. Long synchronous work on a request body (a box's 10,000-club report) calls this
 * between slices so that a user call arriving meanwhile waits for one slice, not for the whole
 * body: the event loop is shared by every request of the process.
 */
export function nextEventLoopTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
