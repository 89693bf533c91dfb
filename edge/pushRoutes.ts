import type { PushRunOutcome } from './pushLoop';
import type { BoxRoute } from './boxRoute';

/** A push loop the box interface runs on demand: the club master sync, the starter-list push. */
interface RunnablePush<TReason extends string> {
  runOnce(): Promise<PushRunOutcome<unknown, unknown, TReason>>;
  status(): unknown;
}

/**
 * The run and status routes of a push loop: run answers 200 done, 409 when the push is switched
 * off (`disabled`), 502 failed, with the outcome and the state; status answers the state.
 */
export function pushRoutes<TReason extends string>(
  push: RunnablePush<TReason>,
  paths: { run: string; status: string },
  disabled: TReason,
): Record<string, BoxRoute> {
  return {
    [paths.run]: {
      method: 'POST',
      async handle() {
        const outcome = await push.runOnce();
        const status = outcome.ok ? 200 : outcome.error.reason === disabled ? 409 : 502;
        return { status, body: { ...outcome, status: push.status() } };
      },
    },
    [paths.status]: { method: 'GET', handle: () => Promise.resolve({ status: 200, body: push.status() }) },
  };
}
