import * as v from 'valibot';

import { LANGUAGES, type Language } from '../i18n/language';

/** The languages emails and pushes are written in; the member's choice, German when none is stored. */
export { LANGUAGES, type Language };

/**
 * The member's contact details for delivery: where email goes and which language emails and
 * pushes are written in. `email: null` removes the address (no email is sent, the delivery log
 * says `no_email_address`).
 */
export const ContactSchema = v.object({
  email: v.nullable(v.pipe(v.string(), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be an email address'))),
  language: v.picklist(LANGUAGES, 'must be de or en'),
});
export type ContactBody = v.InferOutput<typeof ContactSchema>;

/** GET /api/user/contact: the address in use, one waiting for confirmation, the sign-in's verified one, the language. */
export const ContactViewSchema = v.object({
  email: v.nullable(v.string()),
  emailConfirmed: v.boolean(),
  pendingEmail: v.nullable(v.string()),
  signInEmail: v.nullable(v.string()),
  language: v.picklist(LANGUAGES),
});
export type ContactView = v.InferOutput<typeof ContactViewSchema>;

/** POST /api/user/contact/confirmations: the token of the link in the confirmation email. */
export const ConfirmationBodySchema = v.object({
  token: v.pipe(
    v.string('must be the token of a confirmation link'),
    v.nonEmpty('must be the token of a confirmation link'),
    v.maxLength(1000),
  ),
});
export type ConfirmationBody = v.InferOutput<typeof ConfirmationBodySchema>;
