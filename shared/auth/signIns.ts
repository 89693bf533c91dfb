import type { VerifiedUser } from './jwt';

/** Writes a person's sign-in (their profile): given the user id and the name the token suggests. */
export type SignInRecorder = (userId: string, name: string | undefined) => Promise<void>;

let recorder: SignInRecorder | undefined;

/**
 * Names what records sign-ins; the app's function list sets it (functions/registrations.ts), so
 * this layer knows no area. Without one (a test serving a few routes of its own) nothing is recorded.
 */
export function recordSignInsWith(next: SignInRecorder | undefined): void {
  recorder = next;
}

/**
 * Records the caller's sign-in the first time one of their tokens is used for a request that was
 * answered (shared/http/dispatch.ts: a refused request changes nothing), then never again for that
 * token on this instance: the request path keeps no query of its own. Answers undefined when there
 * is nothing to record, so the usual request does not even wait a turn of the event loop. Concurrent
 * first requests of one token may both record it; the recorder's upsert makes that harmless. A
 * failed write leaves the sign-in to the token's next request.
 */
export function recordFirstUse(caller: unknown): Promise<void> | undefined {
  if (!recorder || !isSignedIn(caller) || !caller.signIn || caller.signIn.recorded) return undefined;
  const signIn = caller.signIn;
  return recorder(caller.userId, signIn.name).then(() => {
    signIn.recorded = true;
  });
}

function isSignedIn(caller: unknown): caller is VerifiedUser & { kind: 'user' } {
  return typeof caller === 'object' && caller !== null && (caller as { kind?: unknown }).kind === 'user';
}

/**
 * Takes the caller's sign-in as recorded without writing it: after their data was erased, the
 * dispatcher's record of the answered request would make their profile again at once. A later
 * token (a new sign-in) is recorded as any first one is.
 */
export function skipSignInRecord(caller: unknown): void {
  if (isSignedIn(caller) && caller.signIn) caller.signIn.recorded = true;
}
