/**
 * Runs the `steps` once, one after the other, on SIGINT or SIGTERM (Ctrl-C locally, `docker stop`
 * or systemd on a host), then exits: 0 when everything stopped, 1 when stopping failed. Every
 * long-running process (the local commands, the box agent, the workers) closes its servers and
 * what it started through this.
 */
export function stopOnSignals(...steps: (() => Promise<unknown> | undefined)[]): void {
  const stop = async () => {
    for (const step of steps) await step();
  };
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
