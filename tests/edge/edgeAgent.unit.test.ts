import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type postgres from 'postgres';
import { createAgent } from '../../edge/agent';
import { nextRunDelaySeconds } from '../../edge/backoff';
import { parseEdgeConfig, withEnvFile } from '../../edge/config';
import { parseEdgeConnectorConfig } from '../../edge/connectorConfig';
import { parseEdgeFreshnessConfig } from '../../edge/freshnessConfig';
import { withLocalCloudDefault } from '../../edge/localCloud';
import { invalidReportMessage, prepareReport } from '../../edge/mirror';
import { requestPath } from '../../edge/server';
import { createLogger } from '../../shared/log/logger';
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

  it.each([
    'http://127.0.0.1:7071',
    'http://127.8.9.10',
    'http://127.1:7071',
    'http://localhost:7071',
    'http://[::1]:7071',
    'https://cloud.example',
  ])('accepts %s as the cloud', (url) => {
    expect(() => parseEdgeConfig({ SVC_CLOUD_BASE_URL: url })).not.toThrow();
  });

  it.each([
    'http://cloud.example',
    'http://10.0.0.1:7071',
    'http://127.0.0.1.cloud.example',
    'http://localhost.cloud.example',
    'http://[::2]',
    'ftp://127.0.0.1',
  ])('refuses %s as the cloud: the token would travel in clear text', (url) => {
    expect(() => parseEdgeConfig({ SVC_CLOUD_BASE_URL: url })).toThrow('SVC_CLOUD_BASE_URL must be https');
  });

  it('never repeats the token in its error', () => {
    let message = '';
    try {
      parseEdgeConfig({ SVC_EDGE_API_TOKEN: 'edge_secret', SVC_CLUB_MASTER_SYNC_SECONDS: 'x' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('SVC_CLUB_MASTER_SYNC_SECONDS');
    expect(message).not.toContain('edge_secret');
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
  it('trims and reports each club number once, naming the merged repeats', () => {
    const report = prepareReport([
      { vereinsId: ' 100 ', name: ' SV A ' },
      { vereinsId: '100', name: 'SV A again' },
      { vereinsId: '300', name: 'SV C' },
    ]);
    expect(report).toEqual({
      ok: true,
      clubs: [
        { vereinsId: '100', name: 'SV A' },
        { vereinsId: '300', name: 'SV C' },
      ],
      merged: [{ vereinsId: '100', reason: 'repeats a club number after trimming' }],
    });
  });

  it('refuses the whole report when one row fails, naming every failed row, so no club is left out', () => {
    const report = prepareReport([
      { vereinsId: '100', name: 'SV A' },
      { vereinsId: 'bad id', name: 'SV B' },
      { vereinsId: '200', name: 'x'.repeat(201) },
    ]);
    expect(report.ok).toBe(false);
    if (report.ok) return;
    expect(report.invalid.map((row) => row.vereinsId)).toEqual(['bad id', '200']);
    const message = invalidReportMessage(report.invalid, 3);
    expect(message).toContain('2 of 3 mirror rows');
    expect(message).toContain('"bad id": vereinsId');
    expect(message).toContain('"200": name');
  });

  it('names at most ten failed rows and counts the rest', () => {
    const rows = Array.from({ length: 25 }, (_, index) => ({ vereinsId: `bad ${index}`, name: 'SV' }));
    const report = prepareReport(rows);
    if (report.ok) throw new Error('expected a refused report');
    const message = invalidReportMessage(report.invalid, rows.length);
    expect(message).toContain('"bad 9"');
    expect(message).not.toContain('"bad 10"');
    expect(message).toContain('and 15 more');
  });
});

describe('requestPath', () => {
  it.each<[string | undefined, string | undefined]>([
    ['/api/club-master-sync/status', '/api/club-master-sync/status'],
    ['/api/club-master-sync/status/?x=1#f', '/api/club-master-sync/status'],
    ['//[', '//['],
    ['//', ''],
    ['//box/api/club-master-sync/status', '//box/api/club-master-sync/status'],
    ['*', undefined],
    ['http://box/api/club-master-sync/status', undefined],
    [undefined, undefined],
  ])('%j -> %j', (target, expected) => {
    expect(requestPath(target)).toBe(expected);
  });
});

describe('createAgent scheduling', () => {
  const quiet = createLogger({ minLevel: 'error', sink: () => undefined });
  // readMirrorClubs awaits a tagged-template call; a function returning the rows stands in for it.
  const mirror = (() => Promise.resolve([{ vereinsId: '1', name: 'SV Eins' }])) as unknown as postgres.Sql;
  let cloud: http.Server;
  let cloudUrl: string;
  let cloudFails = false;

  beforeAll(async () => {
    cloud = http.createServer((req, res) => {
      req.resume();
      res.writeHead(cloudFails ? 500 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(cloudFails ? {} : { reported: 1, added: 0, restored: 0, refreshed: 1, markedDeleted: 0 }));
    });
    await new Promise<void>((resolve) => cloud.listen(0, '127.0.0.1', resolve));
    cloudUrl = `http://127.0.0.1:${(cloud.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => cloud.close(() => resolve())));

  // The agent reads this fixed time, so the schedule is compared exactly, never against the wall clock.
  const now = new Date('2026-03-01T12:00:00.000Z');
  const clock = { now: () => now };
  const secondsUntilNextRun = (nextRunAt: string | null) => (nextRunAt === null ? null : (Date.parse(nextRunAt) - now.getTime()) / 1000);

  it('refuses an enabled push without a token', () => {
    const config = { ...parseEdgeConfig({}), syncEnabled: true };
    expect(() => createAgent(config, mirror, quiet)).toThrow('SVC_EDGE_API_TOKEN is required');
  });

  it('reschedules the loop after manual runs: back-off after a failure, the full interval after a success', async () => {
    cloudFails = false;
    const config = parseEdgeConfig({
      SVC_EDGE_API_TOKEN: 'edge_' + 'A'.repeat(43),
      SVC_CLOUD_BASE_URL: cloudUrl,
      SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
      SVC_CLUB_MASTER_SYNC_SECONDS: '3600',
    });
    const agent = createAgent(config, mirror, quiet, clock);
    try {
      agent.start();
      // start() begins a run at once; runOnce joins it instead of starting a second one.
      expect((await agent.runOnce()).ok).toBe(true);
      expect(agent.status().lastError).toBeNull();
      expect(secondsUntilNextRun(agent.status().nextRunAt)).toBe(3600);

      cloudFails = true;
      expect((await agent.runOnce()).ok).toBe(false);
      expect(agent.status().consecutiveFailures).toBe(1);
      expect(secondsUntilNextRun(agent.status().nextRunAt)).toBe(60);
      expect((await agent.runOnce()).ok).toBe(false);
      expect(secondsUntilNextRun(agent.status().nextRunAt)).toBe(120);

      cloudFails = false;
      expect((await agent.runOnce()).ok).toBe(true);
      expect(secondsUntilNextRun(agent.status().nextRunAt)).toBe(3600);
    } finally {
      await agent.stop();
    }
    expect(agent.status().nextRunAt).toBeNull();
  });

  it('a manual run leaves the schedule alone while the loop is not running', async () => {
    const config = parseEdgeConfig({
      SVC_EDGE_API_TOKEN: 'edge_' + 'A'.repeat(43),
      SVC_CLOUD_BASE_URL: cloudUrl,
      SVC_CLUB_MASTER_SYNC_ENABLED: 'true',
    });
    const agent = createAgent(config, mirror, quiet, clock);
    cloudFails = true;
    expect((await agent.runOnce()).ok).toBe(false);
    expect(agent.status().nextRunAt).toBeNull();
  });
});

describe('edge/.env.sample as a newcomer copies it', () => {
  const sample = path.resolve(__dirname, '..', '..', 'edge', '.env.sample');
  const fromSample = (extra: Record<string, string>, settingsFiles: string[] = []) =>
    withLocalCloudDefault(withEnvFile(extra, sample), settingsFiles);

  it("ships the club master push off (the spec's default): a new box pushes nothing until the operator enables it", () => {
    expect(parseEdgeConfig(fromSample({}))).toMatchObject({ syncEnabled: false });
    expect(readFileSync(sample, 'utf8')).toMatch(/^SVC_CLUB_MASTER_SYNC_ENABLED=false$/m);
  });

  it('starts with nothing filled in but the token and the switch, and pushes', () => {
    const env = fromSample({ SVC_EDGE_API_TOKEN: 'edge_token', SVC_CLUB_MASTER_SYNC_ENABLED: 'true' });
    expect(parseEdgeConfig(env)).toMatchObject({ syncEnabled: true, edgeApiToken: 'edge_token', cloudBaseUrl: 'http://127.0.0.1:7071' });
    expect(parseEdgeConnectorConfig(env)).toMatchObject({ enabled: false, clubId: undefined, watchSeconds: 5 });
    expect(() => parseEdgeFreshnessConfig(env)).not.toThrow();
  });

  it('pushes to the local host on the PORT `npm start` uses', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-sample-'));
    try {
      const settings = path.join(dir, 'local.settings.json');
      writeFileSync(settings, JSON.stringify({ Values: { PORT: '7171' } }));
      expect(parseEdgeConfig(fromSample({ SVC_EDGE_API_TOKEN: 't' }, [settings])).cloudBaseUrl).toBe('http://127.0.0.1:7171');
      expect(parseEdgeConfig(fromSample({ SVC_EDGE_API_TOKEN: 't', PORT: '7272' }, [settings])).cloudBaseUrl).toBe('http://127.0.0.1:7272');
      // A cloud set in the settings wins.
      expect(
        parseEdgeConfig(fromSample({ SVC_EDGE_API_TOKEN: 't', SVC_CLOUD_BASE_URL: 'https://cloud.example' }, [settings])).cloudBaseUrl,
      ).toBe('https://cloud.example');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('switched on without the token says what is missing', () => {
    expect(() => parseEdgeConfig(fromSample({ SVC_CLUB_MASTER_SYNC_ENABLED: 'true' }))).toThrow(
      /SVC_EDGE_API_TOKEN is required when SVC_CLUB_MASTER_SYNC_ENABLED is true/,
    );
  });
});
