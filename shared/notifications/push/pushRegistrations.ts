import type { Sql } from '../../db/client';
import { InvalidError, NotFoundError, UnavailableError, UpstreamError } from '../../errors/domainErrors';
import type { Logger } from '../../log/logger';
import { DeliveryFailure } from '../outbox/retryPolicy';
import type { PushChannels } from './pushChannels';
import { deleteRegistration, listRegistrations, upsertRegistration } from './registrationRepository';
import { registrationCursor, type RegisterBody, type Registration } from './registrationSchemas';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Registers the caller's browser or device for push. A mobile device becomes an installation of
 * the Notification Hub in the same step; when the hub refuses it the registration is not stored.
 * Registering the same subscription or token again refreshes it and answers the same id.
 */
export async function registerPush(
  sql: Sql,
  channels: PushChannels,
  userId: string,
  body: RegisterBody,
  log?: Logger,
): Promise<Registration> {
  // The schema guarantees the subscription for webpush and the token otherwise.
  const input = body.subscription
    ? {
        platform: body.platform,
        address: body.subscription.endpoint,
        p256dh: body.subscription.keys.p256dh,
        auth: body.subscription.keys.auth,
      }
    : { platform: body.platform, address: body.deviceToken ?? '', p256dh: null, auth: null };
  if (input.platform === 'webpush' && !channels.web) throw new UnavailableError('Web Push is not configured on this service.');
  if (input.platform === 'webpush' && !isKnownPushService(input.address, channels.web?.allowedHosts ?? [])) {
    throw new InvalidError('The subscription does not name a known push service.', [
      { path: 'subscription.endpoint', message: 'is not the address of a known push service' },
    ]);
  }
  if (input.platform !== 'webpush' && !channels.mobile) throw new UnavailableError('Mobile push is not configured on this service.');
  const { target, dropped } = await sql.begin(async (tx) => {
    const stored = await upsertRegistration(tx, userId, input);
    if (stored.target.platform !== 'webpush') {
      try {
        await channels.mobile?.install(stored.target);
      } catch (error) {
        if (error instanceof DeliveryFailure && error.kind === 'permanent') {
          throw new InvalidError('The push service refused this device token.', [
            { path: 'deviceToken', message: 'was refused by the push service' },
          ]);
        }
        throw new UpstreamError('The push service did not take the registration; try again.');
      }
    }
    return stored;
  });
  await uninstall(channels, dropped, log);
  const { items } = await listRegistrations(sql, userId, 10, undefined);
  const registration = items.find((item) => item.id === target.id);
  if (!registration) throw new Error('registration vanished after it was stored');
  return registration;
}

/** The endpoint's host is one of `hosts` or below one (`fcm.googleapis.com`, `*.notify.windows.com`). */
export function isKnownPushService(endpoint: string, hosts: readonly string[]): boolean {
  const host = new URL(endpoint).hostname.toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}

export async function pushRegistrationPage(
  sql: Sql,
  userId: string,
  limit: number,
  after: readonly [string] | undefined,
): Promise<{ items: Registration[]; nextCursor: string | null }> {
  const page = await listRegistrations(sql, userId, limit, after?.[0]);
  return { items: page.items, nextCursor: page.more && page.lastSeq ? registrationCursor.encode([page.lastSeq]) : null };
}

/** Removes one of the caller's registrations (404 for any other id) and its hub installation. */
export async function removePushRegistration(sql: Sql, channels: PushChannels, userId: string, id: string, log?: Logger): Promise<void> {
  const platform = UUID.test(id) ? await deleteRegistration(sql, userId, id) : undefined;
  if (!platform) throw new NotFoundError('You have no push registration with this id.', { code: 'push_registration_not_found' });
  await uninstall(channels, [{ id, platform }], log);
}

/**
 * Hub installations of registrations that are gone from the table. A failure is logged, not
 * raised: the service only ever sends to registrations in its table, so a leftover installation
 * receives nothing.
 */
async function uninstall(channels: PushChannels, registrations: { id: string; platform: string }[], log?: Logger): Promise<void> {
  for (const registration of registrations) {
    if (registration.platform === 'webpush') continue;
    await channels.mobile?.uninstall(registration.id).catch((error: unknown) => {
      log?.warn('push_installation_not_removed', { registrationId: registration.id, reason: (error as Error).name });
    });
  }
}
