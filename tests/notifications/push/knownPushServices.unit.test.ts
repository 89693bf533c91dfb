import { parseSettings } from '../../../shared/config/settings';
import { isKnownPushService } from '../../../shared/notifications/push/pushRegistrations';

describe('isKnownPushService with the default NOTIFY_WEBPUSH_ALLOWED_HOSTS', () => {
  // Endpoints as the browsers hand them out (Chrome/Edge, Firefox, Edge on Windows, Safari).
  it.each([
    ['https://fcm.googleapis.com/fcm/send/dXJ4c2F:APA91bH', true],
    ['https://updates.push.services.mozilla.com/wpush/v2/gAAAAABl', true],
    ['https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD', true],
    ['https://web.push.apple.com/QGuZs2Zg', true],
    ['https://notfcm.googleapis.com/fcm/send/x', false],
    ['https://fcm.googleapis.com.attacker.example/fcm/send/x', false],
    ['https://127.0.0.1:8443/push/1', false],
    ['https://169.254.169.254/metadata', false],
  ])('%s: %s', (endpoint, known) => {
    // What a deployment that leaves the setting at its default reads.
    const hosts = parseSettings({
      AUTH_ISSUER: 'i',
      AUTH_AUDIENCE: 'a',
      AUTH_JWKS_URL: 'https://login.example/keys',
    }).NOTIFY_WEBPUSH_ALLOWED_HOSTS;
    expect(isKnownPushService(endpoint, hosts)).toBe(known);
  });
});
