/**
 * Runs `stop` once on SIGINT or SIGTERM (Ctrl-C locally, `docker stop` or systemd on a host), then
 * exits: 0 when everything stopped, 1 when stopping failed. Every long-running process (the local
 * commands, the box agent, the workers) closes its servers and what it started through this.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping\n`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`Stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
