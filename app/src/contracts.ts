/**
 * The answers of the API parts the app reads that have no response schema in shared/ to import
 * yet: the member's profile, contact details and training streak, and the names beside a person's
 * user id (docs/member-app.md#people-names-and-the-streak). Their shapes are fixed between the app
 * and the service; once the service's schemas exist, these become `import type` of them.
 */
import type { Language } from '../../web/kit/language';

/** `GET/PUT /api/me/profile`. */
export interface Profile {
  displayName: string;
  initials: string;
  language: Language;
  /** The name still follows the sign-in's name (the member has not changed it). */
  nameFromSignIn: boolean;
}

/** `GET/PUT /api/user/contact`, `POST /api/user/contact/confirmations`. */
export interface Contact {
  email: string | null;
  emailConfirmed: boolean;
  pendingEmail: string | null;
  /** The sign-in's verified email, offered first (it needs no confirmation). */
  signInEmail: string | null;
  language: Language;
}

/** `GET /api/me/streak`: ISO weeks in Europe/Berlin. */
export interface Streak {
  weeks: number;
  longestWeeks: number;
  trainedThisWeek: boolean;
  freezeAvailable: boolean;
  frozenWeeks: string[];
  atRisk: boolean;
  weekEndsAt: string;
  hasShooterLink: boolean;
}

/** What an answer adds beside a person's `userId`: null while the person has no profile. */
export interface Named {
  userId: string;
  displayName?: string | null;
  initials?: string | null;
}
