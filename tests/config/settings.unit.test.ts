import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseSettings, SettingsError, settingNames } from '../../shared/config/settings';

const root = path.resolve(__dirname, '..', '..');
const sample = JSON.parse(readFileSync(path.join(root, 'local.settings.sample.json'), 'utf8')) as { Values: Record<string, string> };
const valid = { AUTH_JWT_SECRET: 'x'.repeat(40), AUTH_ISSUER: 'local-dev', AUTH_AUDIENCE: 'api' };

function errorOf(env: Record<string, string>): SettingsError {
  try {
    parseSettings(env);
  } catch (error) {
    if (error instanceof SettingsError) return error;
    throw error;
  }
  throw new Error('expected a SettingsError');
}

describe('app settings', () => {
  it('parses the committed sample into typed values with defaults', () => {
    const settings = parseSettings(sample.Values);
    expect(settings.DATABASE_URL).toBeUndefined();
    expect(settings.DATABASE_POOL_MAX).toBe(10);
    expect(settings.PORT).toBe(7071);
    expect(settings.HTTP_MAX_BODY_BYTES).toBe(1_048_576);
  });

  it('names the setting that is wrong', () => {
    expect(errorOf({ ...valid, DATABASE_POOL_MAX: 'many' }).problems).toEqual([
      { setting: 'DATABASE_POOL_MAX', message: 'must be a whole number' },
    ]);
    expect(errorOf({ ...valid, PORT: '70000' }).message).toMatch(/PORT must be at most 65535/);
    expect(errorOf({ ...valid, LOG_LEVEL: 'loud' }).message).toMatch(/LOG_LEVEL/);
    expect(errorOf({ ...valid, AUTH_JWKS_URL: 'not a url' }).message).toMatch(/AUTH_JWKS_URL must be a URL/);
  });

  it('requires a signing secret or a JWKS URL, and a real-length secret', () => {
    expect(errorOf({ AUTH_ISSUER: 'i', AUTH_AUDIENCE: 'a' }).message).toMatch(/AUTH_JWT_SECRET is required/);
    expect(errorOf({ ...valid, AUTH_JWT_SECRET: 'short' }).message).toMatch(/at least 32 characters/);
    expect(parseSettings({ AUTH_ISSUER: 'i', AUTH_AUDIENCE: 'a', AUTH_JWKS_URL: 'https://login.example/keys' }).AUTH_JWKS_URL).toBe(
      'https://login.example/keys',
    );
  });

  it('requires issuer and audience', () => {
    expect(errorOf({ AUTH_JWT_SECRET: valid.AUTH_JWT_SECRET, AUTH_AUDIENCE: 'a' }).message).toMatch(/AUTH_ISSUER is required/);
  });

  describe('the public base URL of the unsubscribe links, when email is on', () => {
    const emailOn = {
      ...valid,
      NOTIFY_EMAIL_SENDER_ADDRESS: 'DoNotReply@mail.example.org',
      NOTIFY_EMAIL_ENDPOINT: 'https://acs-clubs.germany.communication.azure.com',
    };

    it('refuses to start without one, naming the setting', () => {
      const { problems } = errorOf(emailOn);
      expect(problems.map((problem) => problem.setting)).toEqual(['NOTIFY_PUBLIC_BASE_URL']);
      expect(problems[0]?.message).toMatch(/is required when email is configured/);
    });

    it('refuses a plain-http address a member could not safely follow', () => {
      expect(errorOf({ ...emailOn, NOTIFY_PUBLIC_BASE_URL: 'http://clubs.example.org' }).message).toMatch(
        /NOTIFY_PUBLIC_BASE_URL must be an https URL/,
      );
    });

    it('takes an https address, and plain http only on this machine (local development)', () => {
      expect(parseSettings({ ...emailOn, NOTIFY_PUBLIC_BASE_URL: 'https://clubs.example.org' }).NOTIFY_PUBLIC_BASE_URL).toBe(
        'https://clubs.example.org',
      );
      expect(parseSettings({ ...emailOn, NOTIFY_PUBLIC_BASE_URL: 'http://127.0.0.1:7090' }).NOTIFY_PUBLIC_BASE_URL).toBe(
        'http://127.0.0.1:7090',
      );
    });

    it('is not needed while email is off', () => {
      expect(
        parseSettings({ ...valid, NOTIFY_EMAIL_SENDER_ADDRESS: 'DoNotReply@mail.example.org' }).NOTIFY_PUBLIC_BASE_URL,
      ).toBeUndefined();
    });

    it('the sample does not pin it to one port (npm start follows PORT)', () => {
      expect(sample.Values['NOTIFY_PUBLIC_BASE_URL']).toBe('');
    });
  });

  it('the sample lists every setting the code reads', () => {
    const missing = settingNames.filter((name) => !(name in sample.Values));
    expect(missing).toEqual([]);
  });

  it('only the settings module reads process.env inside the app', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) walk(full);
        else if (full.endsWith('.ts') && /process\.env/.test(readFileSync(full, 'utf8'))) offenders.push(path.relative(root, full));
      }
    };
    walk(path.join(root, 'functions'));
    walk(path.join(root, 'shared'));
    expect(offenders).toEqual([path.join('shared', 'config', 'settings.ts')]);
  });
});
