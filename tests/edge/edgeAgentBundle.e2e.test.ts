import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getSql } from '../../shared/db/client';
import { MIRROR_CLUB_TABLE_DDL } from '../../edge/mirror';
import { freePort } from '../../development/local/net';
import { useBundles } from '../support/bundles';
import { useMirrorDatabase } from '../support/mirrorDatabase';
import { useTestHost } from '../support/testHost';
import { activeVereinsIds } from '../clubMaster/fixtures';
import { createBox } from '../support/fixtures';

/**
 * The box agent as a box runs it: the bundle `npm run build` emits, copied nowhere near the
 * repository's node_modules and started with plain `node` (no tsx, no devDependencies), pushing
 * to the cloud served by the local host.
 */
describe('the box agent bundle', () => {
  const bundles = useBundles('edge-bundle');
  const mirror = useMirrorDatabase([MIRROR_CLUB_TABLE_DDL]);
  const cloud = useTestHost();

  const startBundle = (env: Record<string, string>) => bundles.start('edge-agent', env);

  it('starts with node alone, pushes the mirror clubs to the cloud and stops on SIGTERM', async () => {
    const box = await createBox(getSql());
    await mirror.sql`insert into club_software_club (vereins_id, name) values ('5001', 'SV Bündel'), ('5002', 'SV Paket')`;
    const port = await freePort();
    // As on a box: the settings in the .env next to the bundle, the environment overriding one.
    const envFile = path.join(bundles.outdir, '.env');
    writeFileSync(
      envFile,
      [
        `SVC_MIRROR_DATABASE_URL=${mirror.url}`,
        `SVC_EDGE_API_TOKEN=${box.token}`,
        `SVC_CLOUD_BASE_URL=${cloud.url}`,
        'SVC_CLUB_MASTER_SYNC_ENABLED=true',
        'SVC_EDGE_PORT=1',
      ].join('\n'),
    );
    const agent = startBundle({ SVC_EDGE_PORT: String(port) });
    await agent.printed('Box agent:');

    // Joins the start-up push when it is still running, else pushes again: either way the clubs landed.
    const run = await fetch(`http://127.0.0.1:${port}/api/club-master-sync/run`, { method: 'POST' });
    expect(run.status).toBe(200);
    expect(await activeVereinsIds(getSql(), box.clubId)).toEqual(['5001', '5002']);
    const status = (await (await fetch(`http://127.0.0.1:${port}/api/club-master-sync/status`)).json()) as Record<string, unknown>;
    expect(status).toMatchObject({ enabled: true, lastError: null, lastResult: { reported: 2 } });
    // The box UI's script was bundled into the agent by the build: a box has no esbuild to bundle it.
    const script = await fetch(`http://127.0.0.1:${port}/ui/app.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await script.text()).toContain('localStorage.getItem("boxUiLanguage")');

    agent.child.kill('SIGTERM');
    expect(await agent.exited).toBe(0);
    expect(agent.output()).toContain('SIGTERM: stopping');
    expect(agent.output()).not.toContain(box.token);
    rmSync(envFile);
  }, 60_000);

  it('refuses to start without the mirror database, naming the setting', async () => {
    const agent = startBundle({ SVC_EDGE_PORT: String(await freePort()) });
    expect(await agent.exited).toBe(1);
    expect(agent.output()).toContain('Start-up failed: SVC_MIRROR_DATABASE_URL is required');
  }, 30_000);
});
