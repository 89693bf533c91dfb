/**
 * The answers of the profile, contact and streak routes, as the service's response schemas define
 * them (docs/member-app.md#people-names-and-the-streak), and the names beside a person's user id.
 */
import type { InferOutput } from 'valibot';
import type { StreakSchema } from '../../shared/challenges/streakSchemas';
import type { ContactView } from '../../shared/notifications/contactSchemas';

export type { Profile } from '../../shared/people/responses';
/** `GET/PUT /api/user/contact`, `POST /api/user/contact/confirmations`. */
export type Contact = ContactView;
/** `GET /api/me/streak`: ISO weeks in Europe/Berlin. */
export type Streak = InferOutput<typeof StreakSchema>;

/** What an answer adds beside a person's `userId`: null while the person has no profile. */
export interface Named {
  userId: string;
  displayName?: string | null;
  initials?: string | null;
}
