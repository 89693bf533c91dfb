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
