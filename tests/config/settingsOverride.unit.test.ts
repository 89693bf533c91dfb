import { getSettings, overrideSettings, rawSetting, withSettings } from '../../shared/config/settings';

/** What a test states as its configuration: read as the environment would be, never written to it. */
const REQUIRED = { AUTH_ISSUER: 'https://idp.example', AUTH_AUDIENCE: 'shooting-club', AUTH_JWT_SECRET: 's'.repeat(40) };

describe('settings overrides for tests', () => {
  it('are read with the same parsing as the environment', () => {
    const restore = overrideSettings({ ...REQUIRED, DATABASE_POOL_MAX: '7', SVC_INGEST_STATUS_ENABLED: 'true' });
    try {
      expect(getSettings()).toMatchObject({ DATABASE_POOL_MAX: 7, SVC_INGEST_STATUS_ENABLED: true });
    } finally {
      restore();
    }
  });

  it('leave process.env as it was', () => {
    const before = { ...process.env };
    const restore = overrideSettings({ ...REQUIRED, INGEST_EVENTHUB_NAME: 'hub-of-a-test' });
    try {
      expect(getSettings().INGEST_EVENTHUB_NAME).toBe('hub-of-a-test');
      expect(process.env).toEqual(before);
    } finally {
      restore();
    }
  });

  it('are gone once restored', () => {
    const restore = overrideSettings({ ...REQUIRED, DATABASE_POOL_MAX: '7' });
    restore();
    expect(rawSetting('DATABASE_POOL_MAX')).toBe(process.env['DATABASE_POOL_MAX']);
  });

  it('nest: the innermost wins, and restoring an outer one leaves the inner one in force', () => {
    const outer = overrideSettings({ ...REQUIRED, DATABASE_POOL_MAX: '3' });
    const inner = overrideSettings({ DATABASE_POOL_MAX: '5' });
    try {
      expect(getSettings().DATABASE_POOL_MAX).toBe(5);
      outer();
      expect(rawSetting('DATABASE_POOL_MAX')).toBe('5');
    } finally {
      inner();
      outer();
    }
  });

  it('take undefined as unset, so the default applies', async () => {
    await withSettings({ ...REQUIRED, DATABASE_POOL_MAX: '9' }, async () => {
      await withSettings({ DATABASE_POOL_MAX: undefined }, () => {
        expect(getSettings().DATABASE_POOL_MAX).toBe(10);
      });
    });
  });

  it('withSettings removes them also when the function throws', async () => {
    await expect(
      withSettings({ ...REQUIRED, INGEST_EVENTHUB_NAME: 'thrown' }, () => {
        throw new Error('failed inside');
      }),
    ).rejects.toThrow('failed inside');
    expect(rawSetting('INGEST_EVENTHUB_NAME')).toBe(process.env['INGEST_EVENTHUB_NAME']);
  });

  it("reach the local host's by-name reads (rawSetting), unparsed", async () => {
    await withSettings({ INGEST_EVENTHUB_CONSUMER_GROUP: ' replay ' }, () => {
      expect(rawSetting('INGEST_EVENTHUB_CONSUMER_GROUP')).toBe(' replay ');
    });
  });

  it('rawSetting answers the environment where nothing overrides a name', () => {
    expect(process.env['PATH']).toBeDefined();
    expect(rawSetting('PATH')).toBe(process.env['PATH']);
  });
});
