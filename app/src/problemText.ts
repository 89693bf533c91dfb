import { ApiError } from '../../web/kit/apiError';
import { t, type TextKey } from './i18n';

/**
 * A failed call as a sentence for the member, in the app's language: never the service's English
 * detail, a field path or a code. Known codes and fields have their own sentence; anything else
 * a generic one by status, so a new server error still reads as a sentence. Pure but for `t`.
 */
const CODES: Readonly<Record<string, TextKey>> = {
  challenge_ended: 'problem.code.challenge_ended',
  already_joined: 'problem.code.already_joined',
  level_out_of_bounds: 'problem.code.level_out_of_bounds',
  invitation_used: 'problem.code.invitation_used',
  invitation_expired: 'problem.code.invitation_used',
  invitation_not_found: 'problem.code.invitation_not_found',
  already_member: 'problem.code.already_member',
  shooter_taken: 'problem.code.shooter_taken',
  link_exists: 'problem.code.link_exists',
  last_leader: 'club.lastLeader',
  insufficient_history: 'card.insufficient',
};

/** The last named segment of a field path (`body.notifications.dnd.from` → `from`) and what the member calls it. */
const FIELDS: Readonly<Record<string, TextKey>> = {
  displayName: 'profile.name',
  email: 'contact.email',
  from: 'problem.field.dnd',
  to: 'problem.field.dnd',
  time: 'settings.summary.time',
  code: 'join.code',
  shooterId: 'shooter.id',
  clubId: 'shooter.club',
  expiresInHours: 'club.expiry',
  search: 'filter.search',
  token: 'problem.field.token',
};

const STATUSES: Readonly<Record<number, TextKey>> = {
  0: 'state.network',
  403: 'problem.forbidden',
  404: 'problem.gone',
  409: 'problem.conflict',
  410: 'problem.code.invitation_used',
  429: 'problem.busy',
};

export function problemText(error: unknown): string {
  if (!(error instanceof ApiError)) return t('problem.unknown');
  const byCode = error.code ? CODES[error.code] : undefined;
  if (byCode) return t(byCode);
  if (error.status === 400 || error.status === 422) {
    const names = error.fieldErrors.map(
      (field) =>
        FIELDS[
          field.path
            .split('.')
            .filter((part) => !/^\d+$/.test(part))
            .pop() ?? ''
        ],
    );
    if (names.length === 0 || names.some((name) => name === undefined)) return t('problem.invalid');
    return t('problem.fields', { fields: [...new Set(names.map((name) => t(name as TextKey)))].join(', ') });
  }
  return t(STATUSES[error.status] ?? (error.status >= 500 ? 'problem.server' : 'problem.unknown'));
}
