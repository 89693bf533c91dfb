import type { Gate } from './slots';

/**
 * The warm-up gate of a pool. The driver learns the array types (`text[]` for `text`) from the
 * server when its first connection opens, but executes that connection's first query in the same
 * step that completes the type query, before it has stored the types: an array parameter in that
 * query goes out as `a,b,c` and the server refuses it with 22P02 `malformed array literal` (the
 * first query of a fresh pool failed in most of 40 tries; reported upstream as porsager/postgres#789,
 * still open). So the pool's first query is `probe`, a statement without parameters, and the others
 * wait for it. A failed probe lets them go on to fail on their own; the next query probes again.
 * The types are shared by every connection of the pool, so later connections are not affected.
 */
export function warmUpGate(probe: () => PromiseLike<unknown>): Gate {
  let open = false;
  let warming: Promise<void> | undefined;
  return {
    get open() {
      return open;
    },
    whenOpen(next) {
      if (open) return next();
      warming ??= Promise.resolve(probe()).then(
        () => {
          open = true;
        },
        () => {
          warming = undefined;
        },
      );
      void warming.then(next);
    },
  };
}
