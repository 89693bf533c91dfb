import { nextRunDelaySeconds } from '../../edge/backoff';
import { parseEdgeConfig, withEnvFile } from '../../edge/config';
import { prepareReport } from '../../edge/mirror';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

describe('nextRunDelaySeconds', () => {
  it.each([
    [21_600, 0, 21_600],
    [21_600, 1, 60],
    [21_600, 2, 120],
    [21_600, 3, 240],
    [21_600, 9, 15_360],
    [21_600, 10, 21_600],
    [21_600, 500, 21_600],
    [90, 1, 60],
    [90, 2, 90],
    [30, 1, 30],
  ])('interval %d s after %d failures: %d s', (interval, failures, expected) => {
    expect(nextRunDelaySeconds(interval, failures)).toBe(expected);
  });
});

describe('parseEdgeConfig', () => {
  it('has defaults for everything but the token', () => {
    expect(parseEdgeConfig({})).toEqual({
      edgeApiToken: undefined,
      cloudBaseUrl: 'http://127.0.0.1:7071',
      syncEnabled: false,
      syncIntervalSeconds: 21_600,
      mirrorDatabaseUrl: undefined,
      host: '127.0.0.1',
      port: 7072,
      cloudTimeoutSeconds: 30,
    });
  });

  it('reads the box settings', () => {
    const config = parseEdgeConfig({
      SVC_EDGE_API_TOKEN: 'edge_x',
      SVC_CLOUD_BASE_URL: 'https://cloud.example/',
      SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
      SVC_CLUB_MASTER_SYNC_SECONDS: '600',
      SVC_MIRROR_DATABASE_URL: 'postgres://box/mirror',
      UNRELATED: 'ignored',
    });
    expect(config).toMatchObject({
      edgeApiToken: 'edge_x',
      cloudBaseUrl: 'https://cloud.example',
      syncEnabled: true,
      syncIntervalSeconds: 600,
      mirrorDatabaseUrl: 'postgres://box/mirror',
    });
  });

  it.each([
    [{ SVC_CLUB_MASTER_SYNC_ENABLED: 'yes' }, 'SVC_CLUB_MASTER_SYNC_ENABLED'],
    [{ SVC_CLUB_MASTER_SYNC_SECONDS: '5' }, 'SVC_CLUB_MASTER_SYNC_SECONDS'],
    [{ SVC_CLOUD_BASE_URL: 'not a url' }, 'SVC_CLOUD_BASE_URL'],
    [{ SVC_CLUB_MASTER_SYNC_ENABLED: 'true' }, 'SVC_EDGE_API_TOKEN is required'],
  ])('rejects %j', (env, message) => {
    expect(() => parseEdgeConfig(env)).toThrow(message);
  });

  it('never repeats the token in its error', () => {
    expect(() => parseEdgeConfig({ SVC_EDGE_API_TOKEN: 'edge_secret', SVC_CLUB_MASTER_SYNC_SECONDS: 'x' })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('edge_secret') }),
    );
  });
});

describe('withEnvFile', () => {
  it('adds the file underneath the environment', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-env-'));
    const file = path.join(dir, '.env');
    writeFileSync(file, 'SVC_CLUB_MASTER_SYNC_SECONDS=600\nSVC_EDGE_PORT=9000\n# comment\n');
    expect(withEnvFile({ SVC_EDGE_PORT: '7000' }, file)).toEqual({ SVC_CLUB_MASTER_SYNC_SECONDS: '600', SVC_EDGE_PORT: '7000' });
    expect(withEnvFile({ A: '1' }, path.join(dir, 'missing.env'))).toEqual({ A: '1' });
  });
});

describe('prepareReport', () => {
  it('trims, keeps valid rows and names the skipped ones', () => {
    const { clubs, skipped } = prepareReport([
      { vereinsId: ' 100 ', name: ' SV A ' },
      { vereinsId: '100', name: 'SV A again' },
      { vereinsId: 'bad id', name: 'SV B' },
      { vereinsId: '200', name: 'x'.repeat(201) },
      { vereinsId: '300', name: 'SV C' },
    ]);
    expect(clubs).toEqual([
      { vereinsId: '100', name: 'SV A' },
      { vereinsId: '300', name: 'SV C' },
    ]);
    expect(skipped.map((entry) => entry.vereinsId)).toEqual(['100', 'bad id', '200']);
  });
});
