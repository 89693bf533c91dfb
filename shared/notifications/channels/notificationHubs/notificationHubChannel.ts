import type { Installation, InstallationTemplate, NotificationHubsClient } from '@azure/notification-hubs';
import { DeliveryFailure } from '../../outbox/retryPolicy';
import { deliveryClientPolicies, throttleHintOf } from '../throttlingPolicy';
import { loadPushSdk, type PushSdk } from '../loadPushSdk';
import type { MobilePushChannel, PushMessage, PushTarget } from '../pushChannel';

/**
 * Mobile push through Azure Notification Hubs with its SDK. Each registration is one
 * installation (its id is the registration's id) with two templates, one with sound and one
 * without, told apart by template tags; a push is a template notification to
 * `$InstallationId:{id}` and the tag of the member's `push.sound`, so the hub renders the APNs
 * or FCM v1 payload and the service never builds platform JSON per message. The SDK loads with
 * the first call (loadPushSdk.ts), not when the app starts.
 */
export function notificationHubChannel(hub: { connectionString: string; hubName: string }): MobilePushChannel {
  let client: NotificationHubsClient | undefined;
  const connect = async () => {
    const sdk = await loadPushSdk();
    // A throttled send parks its row rather than waiting in the SDK (throttlingPolicy.ts).
    client ??= new sdk.NotificationHubsClient(hub.connectionString, hub.hubName, deliveryClientPolicies());
    return { sdk, client };
  };
  return {
    async install(target) {
      const { sdk, client } = await connect();
      try {
        await client.createOrUpdateInstallation(installationOf(sdk, target));
      } catch (error) {
        throw asFailure(error);
      }
    },
    async uninstall(registrationId) {
      const { client } = await connect();
      try {
        await client.deleteInstallation(registrationId);
      } catch (error) {
        if (statusOf(error) !== 404) throw asFailure(error);
      }
    },
    async send(target: PushTarget, message: PushMessage) {
      const { sdk, client } = await connect();
      try {
        // The hub does not tell a sender that a device is gone; it marks the installation's
        // channel expired (APNs/FCM said so on an earlier push) or drops the installation.
        const installation = await client.getInstallation(target.id);
        if (installation.pushChannelExpired) return 'gone';
      } catch (error) {
        if (statusOf(error) === 404) return 'gone';
        throw asFailure(error);
      }
      try {
        await client.sendNotification(sdk.createTemplateNotification({ body: templateProperties(message) }), {
          tagExpression: `$InstallationId:{${target.id}} && ${message.sound ? 'sound' : 'silent'}`,
        });
        return 'accepted';
      } catch (error) {
        throw asFailure(error);
      }
    },
  };
}

/** The values the installation's templates substitute (`$(title)`, `$(body)`, `$(ids)`, `$(collapse)`). */
export function templateProperties(message: PushMessage): Record<string, string> {
  return { title: message.title, body: message.body, ids: message.notificationIds.join(','), collapse: message.collapseKey };
}

const APNS_TEMPLATES: Record<string, InstallationTemplate> = {
  alert: {
    body: '{"aps":{"alert":{"title":"$(title)","body":"$(body)"},"sound":"default"},"notificationIds":"$(ids)"}',
    headers: { 'apns-push-type': 'alert', 'apns-collapse-id': '$(collapse)' },
    tags: ['sound'],
  },
  alertSilent: {
    body: '{"aps":{"alert":{"title":"$(title)","body":"$(body)"}},"notificationIds":"$(ids)"}',
    headers: { 'apns-push-type': 'alert', 'apns-collapse-id': '$(collapse)' },
    tags: ['silent'],
  },
};

const FCM_TEMPLATES: Record<string, InstallationTemplate> = {
  alert: {
    body: '{"message":{"notification":{"title":"$(title)","body":"$(body)"},"android":{"collapse_key":"$(collapse)","notification":{"default_sound":true}},"data":{"notificationIds":"$(ids)"}}}',
    headers: {},
    tags: ['sound'],
  },
  alertSilent: {
    body: '{"message":{"notification":{"title":"$(title)","body":"$(body)"},"android":{"collapse_key":"$(collapse)","notification":{"default_sound":false}},"data":{"notificationIds":"$(ids)"}}}',
    headers: {},
    tags: ['silent'],
  },
};

export function installationOf(
  sdk: Pick<PushSdk, 'createAppleInstallation' | 'createFcmV1Installation'>,
  target: PushTarget,
): Installation {
  const common = { installationId: target.id, pushChannel: target.address, userId: target.userId };
  if (target.platform === 'apns') return sdk.createAppleInstallation({ ...common, templates: APNS_TEMPLATES });
  if (target.platform === 'fcmv1') return sdk.createFcmV1Installation({ ...common, templates: FCM_TEMPLATES });
  throw new Error(`${target.platform} is not a Notification Hubs platform`);
}

function statusOf(error: unknown): number | undefined {
  return (error as { statusCode?: number }).statusCode;
}

/**
 * The hub's answer as a failure kind: a malformed request or one too large (400, 413) fails for
 * good; a rejected key (401, during rotation), an exceeded quota (403), throttling and 5xx may pass later,
 * throttling (429, 503) not before the hub's Retry-After.
 */
function asFailure(error: unknown): DeliveryFailure {
  const status = statusOf(error);
  const code = (error as { code?: string }).code;
  const reason = `${status ? `notification_hub_${status}` : (code ?? 'notification_hub_error')}: ${(error as Error).message ?? ''}`;
  return new DeliveryFailure(status === 400 || status === 413 ? 'permanent' : 'transient', reason, throttleHintOf(error));
}
