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
 * Records the caller's sign-in the first time one of their tokens is used for a request that
 * passed its guard and validation (a refused request changes nothing), then never again for that
 * token on this instance: the request path keeps no query of its own. Concurrent first requests
 * of one token may both record it; the recorder's upsert makes that harmless.
 */
export async function recordFirstUse(caller: unknown): Promise<void> {
  if (!recorder || !isSignedIn(caller) || !caller.signIn || caller.signIn.recorded) return;
  await recorder(caller.userId, caller.signIn.name);
  caller.signIn.recorded = true;
}

function isSignedIn(caller: unknown): caller is VerifiedUser & { kind: 'user' } {
  return typeof caller === 'object' && caller !== null && (caller as { kind?: unknown }).kind === 'user';
}
