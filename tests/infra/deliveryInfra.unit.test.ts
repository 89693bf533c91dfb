import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseSettings } from '../../shared/config/settings';
import { emailSenderFromSettings } from '../../shared/notifications/channels/email/acsEmailSender';
import { pushChannelsFromSettings } from '../../shared/notifications/push/pushChannels';
import { deployedResources, ENTRA_SIGN_IN, functionAppEnvironment } from './processSettings';
import { bicepParamFile, environments, infraSettings, mainBicep, root } from './settingsSources';

/**
 * Email and push reach members in Azure: infra provisions Communication Services, a notification
 * hub and the VAPID pair, and hands the app settings that turn every channel on (read from the
 * files it deploys; no Bicep compiler runs here).
 */
const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const module = (file: string) => read('infra', 'modules', file);

const DELIVERY_SETTINGS = {
  NOTIFY_EMAIL_ENDPOINT: 'resource:emailEndpoint',
  NOTIFY_EMAIL_SENDER_ADDRESS: 'resource:emailSenderAddress',
  NOTIFY_PUBLIC_BASE_URL: 'resource:publicBaseUrl',
  NOTIFY_PUSH_HUB_CONNECTION: 'secret:notification-hub-connection',
  NOTIFY_PUSH_HUB_NAME: 'resource:notificationHubName',
  NOTIFY_WEBPUSH_PUBLIC_KEY: 'secret:webpush-vapid-public-key',
  NOTIFY_WEBPUSH_PRIVATE_KEY: 'secret:webpush-vapid-private-key',
  NOTIFY_WEBPUSH_SUBJECT: 'resource:webPushSubject',
};

/** The function app's settings with this deployment's values as a real one would produce them. */
const deployed = (environment: string) =>
  functionAppEnvironment(environment, {
    secrets: {
      'database-url': 'postgres://app@psql.example.net:5432/shooting_club',
      'paging-cursor-key': 'k'.repeat(64),
      'notification-hub-connection':
        'Endpoint=sb://ntfns-scb.servicebus.windows.net/;SharedAccessKeyName=app-send-manage;SharedAccessKey=a2V5',
      'webpush-vapid-public-key': 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
      'webpush-vapid-private-key': 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
    },
    resources: deployedResources(),
    deployment: ENTRA_SIGN_IN,
  });

describe('delivery as infra provisions it', () => {
  it('hands the app every delivery setting from what this deployment creates', () => {
    const { app } = infraSettings();
    expect(Object.fromEntries(Object.keys(DELIVERY_SETTINGS).map((name) => [name, app[name]]))).toEqual(DELIVERY_SETTINGS);
    expect(app['NOTIFY_EMAIL_CONNECTION']).toBe('');
    const resources = /var resourceSettingValues = \{([\s\S]*?)\n\}/.exec(mainBicep())?.[1] ?? '';
    expect(resources).toMatch(/emailEndpoint: email\.outputs\.endpoint/);
    expect(resources).toMatch(/emailSenderAddress: email\.outputs\.senderAddress/);
    expect(resources).toMatch(/notificationHubName: notificationHubs\.outputs\.hubName/);
  });

  it.each(environments)('turns email, the hub and Web Push on in %s, and the app starts with those settings', (environment) => {
    const settings = parseSettings(deployed(environment));
    expect(emailSenderFromSettings(settings)).toBeDefined();
    const channels = pushChannelsFromSettings(settings);
    expect({ web: Boolean(channels.web), mobile: Boolean(channels.mobile) }).toEqual({ web: true, mobile: true });
  });

  it("gives the unsubscribe links the app's https address: its own host, or the custom one", () => {
    const functionApp = module('functionApp.bicep');
    expect(functionApp).toContain("var siteBaseUrl = empty(publicBaseUrl) ? 'https://${site.properties.defaultHostName}' : publicBaseUrl");
    expect(mainBicep()).toContain("var publicBaseUrl = empty(publicHostName) ? '' : 'https://${publicHostName}'");
  });

  it("sends email with the app's managed identity, allowed on the Communication Services resource only", () => {
    const email = module('email.bicep');
    expect(email).toMatch(
      /resource appSends 'Microsoft\.Authorization\/roleAssignments@[^']+' = \{\n\s+name: .*\n\s+scope: communication\n/,
    );
    expect(email).toContain('principalId: senderPrincipalId');
    expect(mainBicep()).toMatch(/senderPrincipalId: identities\.outputs\.functionPrincipalId/);
    // An Azure-managed domain by default; a custom one is linked (and sends) only once verified.
    expect(email).toContain("domainManagement: 'AzureManaged'");
    expect(email).toContain('linkedDomains: sendsFromCustomDomain ? [managedDomain.id, customEmailDomain.id] : [managedDomain.id]');
  });

  it('makes the VAPID pair once with a deployment script, before the app resolves its references', () => {
    const keys = module('webPushKeys.bicep');
    expect(keys).toContain("scriptContent: loadTextContent('webPushKeys.sh')");
    expect(mainBicep()).toMatch(/dependsOn: \[secretAccess, postgres, notificationHubs, webPushKeys\]/);
  });

  it.each(environments)('takes the push credentials of %s from the workflow, secrets as secrets, and from azd', (environment) => {
    const workflow = read('.github', 'workflows', 'infra.yml');
    const parameters = read('infra', 'main.parameters.json');
    for (const [param, variable, kind] of [
      ['apnsKeyId', 'NOTIFY_APNS_KEY_ID', 'vars'],
      ['apnsToken', 'NOTIFY_APNS_TOKEN', 'secrets'],
      ['fcmClientEmail', 'NOTIFY_FCM_CLIENT_EMAIL', 'vars'],
      ['fcmPrivateKey', 'NOTIFY_FCM_PRIVATE_KEY', 'secrets'],
      ['emailCustomDomain', 'NOTIFY_EMAIL_CUSTOM_DOMAIN', 'vars'],
      ['publicHostName', 'NOTIFY_PUBLIC_HOST_NAME', 'vars'],
    ] as const) {
      expect(bicepParamFile(environment)).toContain(`param ${param} = readEnvironmentVariable('${variable}', '')`);
      expect([variable, workflow.split(`${variable}: \${{ ${kind}.${variable} }}`).length - 1]).toEqual([variable, 2]);
      expect(parameters).toContain(`"value": "\${${variable}=}"`);
    }
    for (const secure of ['apnsToken', 'fcmPrivateKey'])
      expect(mainBicep()).toMatch(new RegExp(`@secure\\(\\)\\n(@description\\(.*\\)\\n)?param ${secure} string`));
  });
});
