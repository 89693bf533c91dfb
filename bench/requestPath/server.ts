import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import postgres from 'postgres';
import { functionDefinitions } from '../../functions/definitions';
import { leaderboardForViewer } from '../../shared/challenges/clubBoard';
import { closeSql } from '../../shared/db/client';
import { createLogger } from '../../shared/log/logger';
import { listInbox } from '../../shared/notifications/inboxService';
import { startDevHost } from '../../development/devhost/host';

/**
 * One side of the whole-path bench, as a child process of it (so the load generator never shares
 * its event loop): `host` is the local host as `npm start` runs it (every function, guards, token
 * verification, validation, logging at LOG_LEVEL); `bare` is node:http and a plain postgres.js pool
 * running the same page queries and writing the same JSON, with no auth, validation or guard.
 * The bare side serves `/inbox?user=..` and `/leaderboard?challenge=..&user=..`. Settings come from
 * the environment; sends `{ url }` over IPC once listening and stops on `stop`.
 */
async function main(): Promise<void> {
  const side = process.argv[2];
  if (side === 'host') {
    const host = await startDevHost(functionDefinitions, {
      port: 0,
      log: createLogger({ minLevel: 'error' }),
      setting: (name) => process.env[name],
      runTimers: false,
    });
    onStop(() => host.close().then(() => closeSql()));
    process.send?.({ url: host.url });
    return;
  }
  if (side !== 'bare') throw new Error('usage: server.ts host|bare');
  const sql = postgres(process.env['DATABASE_URL'] ?? '', {
    max: Number(process.env['DATABASE_POOL_MAX'] ?? 10),
    onnotice: () => undefined,
    types: { bigint: { to: 20, from: [20], serialize: (value: number) => String(value), parse: (value: string) => Number(value) } },
  });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bare');
    const user = url.searchParams.get('user') ?? '';
    const answer =
      url.pathname === '/inbox'
        ? listInbox(sql, user, { limit: 50, unreadOnly: false })
        : leaderboardForViewer(sql, { userId: user, capabilities: new Set() }, url.searchParams.get('challenge') ?? '', {
            scope: 'global',
            limit: 20,
          });
    answer.then(
      (page) => {
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(page));
      },
      (error: unknown) => {
        res.writeHead(500).end(error instanceof Error ? error.message : 'failed');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onStop(() => new Promise<void>((resolve) => server.close(() => resolve())).then(() => sql.end({ timeout: 5 })));
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

/**
 * Stops on `stop`; answers `cpu` with the process's CPU time so far, for the bench's per-request
 * figure, and `gc` with its young-generation collections so far (count, summed pause in ms), whose
 * pauses stall every request in flight and so show in the p99.
 */
function onStop(stop: () => Promise<unknown>): void {
  const young = { count: 0, pauseMs: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if ((entry.toJSON() as { detail?: { kind?: number } }).detail?.kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
      young.count += 1;
      young.pauseMs += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (message: unknown) => {
    if (message === 'stop') void stop().finally(() => process.exit(0));
    if (message === 'cpu') {
      const { user, system } = process.cpuUsage();
      process.send?.({ cpuMicros: user + system });
    }
    if (message === 'gc') process.send?.({ youngCollections: { ...young } });
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`bench server failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
