import { Agent } from 'node:https';
import type { EmailClient } from '@azure/communication-email';
import { createTemplateNotification, type NotificationHubsClient } from '@azure/notification-hubs';
import webPush from 'web-push';
import type { Sql } from '../../shared/db/client';
import { renderEmail } from '../../shared/notifications/channels/email/emailTemplates';
import { unsubscribeUrl } from '../../shared/notifications/channels/email/unsubscribe';
import { templateProperties } from '../../shared/notifications/channels/notificationHubs/notificationHubChannel';
import { webPushPayload } from '../../shared/notifications/channels/webPush/webPushChannel';
import type { Language } from '../../shared/notifications/contactSchemas';
import { inParallel } from '../../shared/notifications/outbox/inParallel';

export interface BareClients {
  email: EmailClient;
  senderAddress: string;
  hub: NotificationHubsClient;
  vapid: { subject: string; publicKey: string; privateKey: string };
  publicBaseUrl: string;
  senderName: string;
}

export interface BareOptions {
  batch: number;
  /** Batches per channel. */
  rounds: number;
  /** Sends in flight per channel. */
  concurrency: number;
}

/**
 * The delivery bench's baseline: what a minimal hand-written sender does with the same outbox.
 * Per channel and round, one indexed select of the oldest due rows joined to where they go, the
 * same SDK calls the worker makes for them (EmailClient.beginSend and its poll, web-push's
 * sendNotification, the hub's template send), with the same payloads and the same concurrency,
 * then one UPDATE marking the batch sent. It leaves out what the worker does around the sends:
 * the lease (FOR UPDATE SKIP LOCKED and the claim's UPDATE), the members' settings, operation ids
 * and collapse keys, the per-row outcome and delivery log, the hub's installation check, the
 * registrations' last_sent_at. A send that fails (a timeout on a crowded machine) leaves its row
 * pending, so the next round selects it again; the failures are answered by kind.
 * Answers the rows marked sent.
 */
export async function bareDrain(
  sql: Sql,
  clients: BareClients,
  options: BareOptions,
): Promise<{ sent: number; failures: Map<string, number> }> {
  const failures = new Map<string, number>();
  const [emails, pushes] = await Promise.all([bareEmails(sql, clients, options, failures), barePushes(sql, clients, options, failures)]);
  return { sent: emails + pushes, failures };
}

/** Runs one send; a failure is counted by its kind and leaves the row pending, to be selected again. */
async function attempt(failures: Map<string, number>, send: () => Promise<unknown>): Promise<boolean> {
  try {
    await send();
    return true;
  } catch (error) {
    const { statusCode, code, name } = error as { statusCode?: number; code?: string; name?: string };
    const kind = String(statusCode ?? code ?? name ?? 'error');
    failures.set(kind, (failures.get(kind) ?? 0) + 1);
    return false;
  }
}

async function bareEmails(sql: Sql, clients: BareClients, options: BareOptions, failures: Map<string, number>): Promise<number> {
  let marked = 0;
  for (let round = 0; round < options.rounds; round++) {
    const rows: { id: string; userId: string; title: string; body: string | null; email: string; language: Language }[] = await sql`
      select o.id::text as id, o.user_id as "userId", o.title, o.body, c.email, c.language
      from notification_outbox o join user_contact c on c.user_id = o.user_id
      where o.status = 'pending' and o.channel = 'email' and o.deliver_after <= now()
      order by o.deliver_after, o.id limit ${options.batch}`;
    if (rows.length === 0) break;
    const sent = await inParallel(rows, options.concurrency, (row) =>
      attempt(failures, async () => {
        // The same email on the wire as the worker's: a bulk sender needs the one-click unsubscribe link too.
        const link = unsubscribeUrl(clients.publicBaseUrl, { userId: row.userId, category: null });
        const rendered = renderEmail({
          language: row.language,
          senderName: clients.senderName,
          items: [{ title: row.title, body: row.body }],
          digest: null,
          unsubscribeCategory: null,
          unsubscribeUrl: link,
        });
        const poller = await clients.email.beginSend({
          senderAddress: clients.senderAddress,
          content: { subject: rendered.subject, plainText: rendered.plainText, html: rendered.html },
          recipients: { to: [{ address: row.email }] },
          headers: { 'List-Unsubscribe': `<${link}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
          disableUserEngagementTracking: true,
        });
        const result = await poller.pollUntilDone();
        if (result.status !== 'Succeeded') throw new Error(`bare email ${result.status}`);
      }),
    );
    marked += await markSent(
      sql,
      rows.filter((_, index) => sent[index]),
    );
  }
  return marked;
}

async function barePushes(sql: Sql, clients: BareClients, options: BareOptions, failures: Map<string, number>): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  // One VAPID token per push service origin, signed once, as the worker does (vapidHeaders.ts).
  const authorizations = new Map<string, string>();
  const authorization = (endpoint: string) => {
    const audience = new URL(endpoint).origin;
    let header = authorizations.get(audience);
    if (!header) {
      const { subject, publicKey, privateKey } = clients.vapid;
      header = webPush.getVapidHeaders(audience, subject, publicKey, privateKey, 'aes128gcm').Authorization;
      authorizations.set(audience, header);
    }
    return header;
  };
  let marked = 0;
  for (let round = 0; round < options.rounds; round++) {
    const rows: {
      id: string;
      title: string;
      body: string | null;
      registrationId: string;
      platform: string;
      address: string;
      p256dh: string | null;
      auth: string | null;
    }[] = await sql`
      select o.id::text as id, o.title, o.body, r.id::text as "registrationId", r.platform, r.address, r.p256dh, r.auth
      from (select id, user_id, title, body, deliver_after from notification_outbox
            where status = 'pending' and channel = 'push' and deliver_after <= now()
            order by deliver_after, id limit ${options.batch}) o
      join push_registration r on r.user_id = o.user_id
      order by o.deliver_after, o.id`;
    if (rows.length === 0) break;
    const sent = await inParallel(rows, options.concurrency, (row) =>
      attempt(failures, async () => {
        // A key as long as the worker's (22 characters), so both put the same bytes on the wire.
        const key = row.id.padStart(22, '0');
        const message = { title: row.title, body: row.body ?? '', sound: true, notificationIds: [], collapseKey: key };
        if (row.platform === 'webpush') {
          await webPush.sendNotification(
            { endpoint: row.address, keys: { p256dh: row.p256dh ?? '', auth: row.auth ?? '' } },
            JSON.stringify(webPushPayload(message)),
            {
              headers: { Authorization: authorization(row.address) },
              agent,
              TTL: 24 * 3600,
              urgency: 'normal',
              topic: key,
              contentEncoding: 'aes128gcm',
              timeout: 10_000,
            },
          );
        } else {
          await clients.hub.sendNotification(createTemplateNotification({ body: templateProperties(message) }), {
            tagExpression: `$InstallationId:{${row.registrationId}} && sound`,
          });
        }
      }),
    );
    marked += await markSent(
      sql,
      rows.filter((_, index) => sent[index]),
    );
  }
  agent.destroy();
  return marked;
}

async function markSent(sql: Sql, rows: readonly { id: string }[]): Promise<number> {
  const ids = [...new Set(rows.map((row) => row.id))];
  if (ids.length === 0) return 0;
  const updated = await sql`
    update notification_outbox set status = 'sent', sent_at = now(), updated_at = now()
    where id = any(${ids}::bigint[]) and status = 'pending'`;
  return updated.count;
}
