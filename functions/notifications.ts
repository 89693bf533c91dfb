import { getSql, type Sql } from '../shared/db/client';
import * as v from 'valibot';
import { getSettings } from '../shared/config/settings';
import { defineGroup, defineTimer } from '../shared/host/definition';
import { callerResource, signedInResource } from './callerResource';
import { declared } from './declarations';
import { authenticatedUser, publicAccess } from '../shared/http/guards';
import { defineRoute, json, noContent, type Route } from '../shared/http/route';
import { clearInbox, listInbox, markAllRead, markRead, removeNotification } from '../shared/notifications/inboxService';
import { InboxPageSchema } from '../shared/notifications/responses';
import { headerLanguage } from '../shared/i18n/language';
import { READER_LANGUAGE_HEADERS } from '../shared/notifications/requestLanguage';
import {
  IdParamsSchema,
  ListQuerySchema,
  PatchSettingsBodySchema,
  ReplaceSettingsBodySchema,
  UserSettingsSchema,
} from '../shared/notifications/schemas';
import { getUserSettings, patchUserSettings, replaceUserSettings } from '../shared/notifications/userSettings';
import { deliveriesOf, DeliveryLogSchema } from '../shared/notifications/outbox/deliveryLog';
import { changeContact, confirmContact, contactOf } from '../shared/notifications/contactService';
import { ConfirmationBodySchema, ContactSchema, ContactViewSchema, type ConfirmationBody } from '../shared/notifications/contactSchemas';
import { pushChannelsFromSettings } from '../shared/notifications/push/pushChannels';
import { pushRegistrationPage, registerPush, removePushRegistration } from '../shared/notifications/push/pushRegistrations';
import {
  RegisterBodySchema,
  RegistrationIdParamsSchema,
  RegistrationListQuerySchema,
  RegistrationPageSchema,
  RegistrationSchema,
  WebPushKeySchema,
} from '../shared/notifications/push/registrationSchemas';
import { runDeliveryTimer } from '../shared/notifications/deliveryTimer';
import { applyUnsubscribe, unsubscribeTokenParameter } from '../shared/notifications/channels/email/unsubscribe';

const UnsubscribeQuerySchema = v.object({ token: unsubscribeTokenParameter });
// RFC 8058 §3.2: the mail provider posts exactly this one field, nothing else.
const OneClickBodySchema = v.strictObject({ 'List-Unsubscribe': v.literal('One-Click') });
const UnsubscribedSchema = v.object({ unsubscribed: v.string() });

const deliveryRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/notifications/{id}/deliveries',
    summary: 'What became of the email and push of one of your notifications: each attempt, sent or why not, and how many are still queued',
    guard: authenticatedUser,
    params: IdParamsSchema,
    response: DeliveryLogSchema,
    responses: { 404: { description: 'You have no notification with this id' } },
    async handle({ caller, params }) {
      return json(await deliveriesOf(getSql(), caller.userId, params.id), 200, { 'cache-control': 'no-store' });
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/api/notifications/unsubscribe',
    summary:
      'One-click unsubscribe (RFC 8058) from the List-Unsubscribe header of an email, body List-Unsubscribe=One-Click as a form: switches off the category the signed token names, or all notification emails; no sign-in, the token is the proof (400 query.token for a forged or altered one)',
    guard: publicAccess,
    query: UnsubscribeQuerySchema,
    body: OneClickBodySchema,
    bodyType: 'form',
    // The one field is 26 bytes; a multipart envelope around it stays well below this.
    maxBodyBytes: 2048,
    response: UnsubscribedSchema,
    async handle({ query, log }) {
      const target = query.token;
      await applyUnsubscribe(getSql(), target);
      log.info('notifications_unsubscribed', { category: target.category ?? 'all' });
      return json({ unsubscribed: target.category ?? 'all' }, 200, { 'cache-control': 'no-store' });
    },
  }),
];

/**
 * A change to the caller's own inbox, answered 204: to one notification when the path names its
 * `{id}` (404 when it is not theirs), else to all of them.
 */
function inboxChange(
  route: { method: Route['method']; path: string; summary: string; missing?: string },
  change: (sql: Sql, userId: string, id: string) => Promise<unknown>,
): Route {
  return defineRoute({
    method: route.method,
    path: route.path,
    summary: route.summary,
    guard: authenticatedUser,
    ...(route.missing ? { params: IdParamsSchema, responses: { 404: { description: route.missing } } } : {}),
    status: 204,
    async handle({ caller, params }) {
      await change(getSql(), caller.userId, params['id'] ?? '');
      return noContent();
    },
  });
}

// Primary and compatibility routes share these handlers, so their behaviour cannot drift apart.
const markOneRead = inboxChange(
  {
    method: 'POST',
    path: '/api/notifications/{id}/read',
    summary: 'Mark one of your notifications read (204; repeating is a no-op; 404 when it is not yours)',
    missing: 'You have no notification with this id',
  },
  markRead,
);
const markEveryRead = inboxChange(
  { method: 'POST', path: '/api/notifications/read-all', summary: 'Mark every notification of yours read (204)' },
  (sql, userId) => markAllRead(sql, userId),
);
const deleteOne = inboxChange(
  {
    method: 'DELETE',
    path: '/api/notifications/{id}',
    summary: 'Delete one of your notifications (204; 404 when it is not yours or already gone)',
    missing: 'You have no notification with this id (or it is already gone)',
  },
  removeNotification,
);
const clearAll = inboxChange(
  { method: 'DELETE', path: '/api/notifications', summary: 'Delete every notification of yours (204)' },
  (sql, userId) => clearInbox(sql, userId),
);

/** The same behaviour under another method and path. */
function alias(route: Route, method: Route['method'], path: string, summary: string): Route {
  return { ...route, method, path, summary: `${summary} (compatibility alias of ${route.method} ${route.path})` };
}

const inboxRoutes: Route[] = [
  defineRoute({
    method: 'GET',
    path: '/api/notifications',
    summary:
      'Your inbox, newest first: items, unreadCount and nextCursor (limit 1..200, default 50; cursor; unread=true); texts in the first of de/en of Accept-Language, else your contact language',
    guard: authenticatedUser,
    query: ListQuerySchema,
    response: InboxPageSchema,
    async handle({ caller, query, request }) {
      const sql = getSql();
      const page = await listInbox(sql, caller.userId, {
        limit: query.limit,
        after: query.cursor,
        unreadOnly: query.unread === 'true',
        // The stored language, when the header names neither, comes with the page's own statement.
        language: headerLanguage(request.headers.get('accept-language')),
      });
      return json(page, 200, READER_LANGUAGE_HEADERS);
    },
  }),
  markOneRead,
  markEveryRead,
  deleteOne,
  clearAll,
  alias(markOneRead, 'PATCH', '/api/notifications/{id}/read', 'Mark one notification read'),
  alias(markEveryRead, 'PATCH', '/api/notifications/read-all', 'Mark every notification read'),
  alias(deleteOne, 'POST', '/api/notifications/{id}/delete', 'Delete one notification'),
  alias(clearAll, 'POST', '/api/notifications/clear', 'Delete every notification'),
];

const settingsRoutes = callerResource('/api/user/settings', UserSettingsSchema, {
  GET: {
    summary: 'Your settings: the canonical notifications block (version 1), your time zone and the legacy flat mirror',
    run: getUserSettings,
  },
  PUT: {
    summary:
      'Replace the notifications block (legacy flat fields are ignored next to a block, mapped onto the stored one without); optional timeZone',
    body: ReplaceSettingsBodySchema,
    run: replaceUserSettings,
  },
  PATCH: {
    summary: 'Deep-merge legacy flat fields, then a partial notifications block over them (the block wins per field); optional timeZone',
    body: PatchSettingsBodySchema,
    run: patchUserSettings,
  },
});

const contactRoutes: Route[] = [
  ...signedInResource('/api/user/contact', ContactViewSchema, {
    GET: {
      summary:
        'Your contact details for delivery: the confirmed email address notifications go to (null: none), one waiting for its confirmation link, the address your sign-in vouches for, and the language (de, en)',
      run: contactOf,
    },
    PUT: {
      summary:
        'Set your email address and language (de, en). Your sign-in address is taken at once; any other is sent a confirmation link (24 h) and used once confirmed, your current one stays until then; null removes the address (409 confirmation_limit after 5 links a day)',
      body: ContactSchema,
      responses: { 409: { description: '`code` confirmation_limit: five confirmation emails were sent today' } },
      run: changeContact,
    },
  }),
  ...signedInResource('/api/user/contact/confirmations', ContactViewSchema, {
    POST: {
      summary:
        'Confirm your email address with the token of the link sent to it: it becomes the address in use (400 for a token that is not one of your links; 410 when it was used, replaced by a newer link or expired)',
      body: ConfirmationBodySchema,
      responses: { 410: { description: '`code` confirmation_used, confirmation_replaced or confirmation_expired' } },
      run: (sql, caller, body) => confirmContact(sql, caller, (body as ConfirmationBody).token),
    },
  }),
];

const pushRoutes: Route[] = [
  defineRoute({
    method: 'POST',
    path: '/api/user/push-registrations',
    summary:
      'Register this browser (platform webpush, the PushSubscription as subscription) or app (apns or fcmv1 with deviceToken) for push; at most 10 per member, the oldest goes (201; 503 when that kind of push is not configured)',
    guard: authenticatedUser,
    body: RegisterBodySchema,
    response: RegistrationSchema,
    status: 201,
    responses: { 502: { description: 'The push service did not take the registration; try again' } },
    async handle({ caller, body, log }) {
      return json(await registerPush(getSql(), pushChannelsFromSettings(getSettings()), caller.userId, body, log), 201);
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/push-registrations',
    summary: 'Your push registrations, newest first (limit 1..50, default 20; cursor)',
    guard: authenticatedUser,
    query: RegistrationListQuerySchema,
    response: RegistrationPageSchema,
    async handle({ caller, query }) {
      return json(await pushRegistrationPage(getSql(), caller.userId, query.limit, query.cursor), 200, { 'cache-control': 'no-store' });
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/api/user/push-registrations/{id}',
    summary: 'Remove one of your push registrations (204; 404 when it is not yours or already gone)',
    guard: authenticatedUser,
    params: RegistrationIdParamsSchema,
    status: 204,
    responses: { 404: { description: 'You have no push registration with this id' } },
    async handle({ caller, params, log }) {
      await removePushRegistration(getSql(), pushChannelsFromSettings(getSettings()), caller.userId, params.id, log);
      return noContent();
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/api/user/push-registrations/web-push-key',
    summary: "The service's VAPID public key, the applicationServerKey a browser subscribes with (null when Web Push is not configured)",
    guard: authenticatedUser,
    response: WebPushKeySchema,
    handle() {
      return Promise.resolve(json({ publicKey: pushChannelsFromSettings(getSettings()).web?.publicKey ?? null }));
    },
  }),
];

export const notificationFunctions = [
  defineGroup(declared.notifications, [...inboxRoutes, ...deliveryRoutes]),
  defineGroup(declared.userSettings, settingsRoutes),
  defineGroup(declared.userContact, contactRoutes),
  defineGroup(declared.pushRegistrations, pushRoutes),
  defineTimer(declared.notificationDelivery, ({ log }) => runDeliveryTimer(getSql(), getSettings(), log)),
];
