import { spawn } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './paths';

/**
 * Serves a local fake to a host. With `only`, prints the settings a host started separately needs
 * and keeps the fake up until SIGINT or SIGTERM. Otherwise starts `npm start` (development/start.ts)
 * as a child with those settings (Node reads NODE_EXTRA_CA_CERTS only when a process starts),
 * forwards the signals to it and closes the fake once it exits, exiting with its code.
 */
export function serveFakeToHost(env: Record<string, string>, closeFake: () => Promise<void>, only: boolean): void {
  if (only) {
    console.log('\nSettings for a host started separately (NODE_EXTRA_CA_CERTS must be set before it starts):');
    for (const [name, value] of Object.entries(env)) console.log(`  ${name}=${value}`);
    const stop = () => void closeFake().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const child = spawn(process.execPath, [require.resolve('tsx/cli'), path.join(repoRoot, 'development', 'start.ts')], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  process.on('SIGINT', forward('SIGINT'));
  process.on('SIGTERM', forward('SIGTERM'));
  child.on('exit', (code) => {
    void closeFake().then(() => process.exit(code ?? 0));
  });
}
