import * as v from 'valibot';
import type { Sql } from '../../../db/client';
import { cursorCodec } from '../../../paging/cursor';
import { loadSettingsForUpdate, savePreferences } from '../../preferencesRepository';
import { CATEGORIES, type Category } from '../../record';

/**
 * One-click unsubscribe (RFC 8058): every email carries a link with a signed token naming the
 * recipient and what the link switches off, a category or (null) all notification emails. The
 * receiving mail provider POSTs to it without cookies or credentials, so the token is the only
 * proof; it is HMAC-signed with the cursor key (shared/paging), and a forged or altered token is
 * refused (400 `query.token`) and changes nothing.
 */
const UnsubscribeTokenSchema = v.strictObject({
  u: v.pipe(v.string(), v.nonEmpty(), v.maxLength(200)),
  c: v.nullable(v.picklist(CATEGORIES)),
});

const tokens = cursorCodec('notifications.unsubscribe', UnsubscribeTokenSchema);

export interface UnsubscribeTarget {
  userId: string;
  category: Category | null;
}

export function unsubscribeToken(target: UnsubscribeTarget): string {
  return tokens.encode({ u: target.userId, c: target.category });
}

/** The link a message carries: `base` is the service's public URL. */
export function unsubscribeUrl(base: string, target: UnsubscribeTarget): string {
  return `${base.replace(/\/+$/, '')}/api/notifications/unsubscribe?token=${encodeURIComponent(unsubscribeToken(target))}`;
}

export function readUnsubscribeToken(token: string): UnsubscribeTarget | undefined {
  const decoded = tokens.decode(token);
  return decoded ? { userId: decoded.u, category: decoded.c } : undefined;
}

/** The `token` query parameter: its target, or a 400 naming the field for a token this service did not issue. */
export const unsubscribeTokenParameter = v.pipe(
  v.string(),
  v.maxLength(1000),
  v.rawTransform<string, UnsubscribeTarget>(({ dataset, addIssue, NEVER }) => {
    const target = readUnsubscribeToken(dataset.value);
    if (target) return target;
    addIssue({ message: 'is not a valid unsubscribe token' });
    return NEVER;
  }),
);

/**
 * Switches off what the link names: `email.categories.<category>`, or `email.enabled` for a
 * link without a category. Repeating it changes nothing more.
 */
export async function applyUnsubscribe(sql: Sql, target: UnsubscribeTarget): Promise<void> {
  await sql.begin(async (tx) => {
    const { preferences } = await loadSettingsForUpdate(tx, target.userId);
    const email = target.category
      ? { ...preferences.email, categories: { ...preferences.email.categories, [target.category]: false } }
      : { ...preferences.email, enabled: false };
    await savePreferences(tx, target.userId, { ...preferences, email });
  });
}
