/**
 * Runs `stop` once on SIGINT or SIGTERM (Ctrl-C), then exits: the long-running local commands
 * use it to close their servers and whatever they started.
 */
export function stopOnSignals(stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Stopping failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', handle);
  process.on('SIGTERM', handle);
}
