import type { EmailClient, EmailMessage } from '@azure/communication-email';
import type { Settings } from '../../../config/settings';
import { registerAzureSdk } from '../../../telemetry/telemetry';
import type { EmailSender, OutgoingEmail } from './emailSender';
import { DeliveryFailure } from '../../outbox/retryPolicy';
import { deliveryClientPolicies, throttleHintOf } from '../throttlingPolicy';

/**
 * Email through Azure Communication Services with its SDK. The client authenticates with the
 * connection string when one is set, otherwise with the app's managed identity at the endpoint.
 * `beginSend` carries the message's Operation-Id, and `pollUntilDone` waits for the service's
 * verdict; the SDK retries 5xx answers and network errors itself before an error reaches here,
 * but not throttling with a Retry-After (throttlingPolicy.ts): that parks the row until then.
 */
export function acsEmailSender(client: EmailClient, senderAddress: string): EmailSender {
  return {
    async send(email: OutgoingEmail) {
      const message: EmailMessage = {
        senderAddress,
        content: { subject: email.subject, plainText: email.plainText, html: email.html },
        recipients: { to: [{ address: email.to }] },
        headers: email.headers,
        // The service would otherwise rewrite links for click tracking, the unsubscribe link too.
        disableUserEngagementTracking: true,
      };
      try {
        const poller = await client.beginSend(message, { operationId: email.operationId });
        const result = await poller.pollUntilDone();
        if (result.status !== 'Succeeded') {
          throw new DeliveryFailure('permanent', `${result.error?.code ?? result.status}: ${result.error?.message ?? ''}`);
        }
        return { providerId: result.id };
      } catch (error) {
        throw asFailure(error);
      }
    },
  };
}

/**
 * The provider's verdict as a failure kind: a refused request (4xx other than throttling and
 * authorization) or an operation that ended Failed or Canceled will not succeed on a retry; a
 * throttled, unauthorised (a key being rotated) or unreachable service may.
 */
function asFailure(error: unknown): DeliveryFailure {
  if (error instanceof DeliveryFailure) return error;
  const { statusCode, code, message } = error as { statusCode?: number; code?: string; message?: string };
  const reason = `${code ?? (statusCode ? `http_${statusCode}` : 'send_error')}: ${message ?? ''}`;
  if (statusCode !== undefined) {
    const permanent = statusCode >= 400 && statusCode < 500 && ![401, 403, 408, 429].includes(statusCode);
    return new DeliveryFailure(permanent ? 'permanent' : 'transient', reason, throttleHintOf(error));
  }
  // The poller throws plain errors for an operation that ended Failed or Canceled.
  if (message?.startsWith('The long-running operation has failed') || message === 'Operation was canceled') {
    return new DeliveryFailure('permanent', message);
  }
  return new DeliveryFailure('transient', reason);
}

/**
 * The sender the settings describe, or undefined when email is not configured (rows stay queued).
 * Its SDKs load on the first email (emailSdk.ts), not when the app starts.
 */
export function emailSenderFromSettings(settings: Settings): EmailSender | undefined {
  const senderAddress = settings.NOTIFY_EMAIL_SENDER_ADDRESS;
  if (!senderAddress) return undefined;
  const connection = settings.NOTIFY_EMAIL_CONNECTION;
  if (connection) {
    // Plain http only for a local endpoint (the development fake); the SDK refuses it otherwise.
    const local = /endpoint=http:\/\/(127\.0\.0\.1|localhost)[:/]/i.test(connection);
    return lazySender(async () => {
      const sdk = await import('./emailSdk');
      registerAzureSdk(sdk);
      const { EmailClient } = sdk;
      return acsEmailSender(new EmailClient(connection, { allowInsecureConnection: local, ...deliveryClientPolicies() }), senderAddress);
    });
  }
  const endpoint = settings.NOTIFY_EMAIL_ENDPOINT;
  if (endpoint) {
    const clientId = settings.NOTIFY_EMAIL_CLIENT_ID;
    return lazySender(async () => {
      const sdk = await import('./emailSdk');
      registerAzureSdk(sdk);
      const { EmailClient, ManagedIdentityCredential } = sdk;
      const identity = clientId ? new ManagedIdentityCredential({ clientId }) : new ManagedIdentityCredential();
      return acsEmailSender(new EmailClient(endpoint, identity, deliveryClientPolicies()), senderAddress);
    });
  }
  return undefined;
}

/** A sender built on its first use; a failed load is tried again by the next email. */
function lazySender(load: () => Promise<EmailSender>): EmailSender {
  let loading: Promise<EmailSender> | undefined;
  return {
    async send(email) {
      loading ??= load().catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
      return (await loading).send(email);
    },
  };
}
