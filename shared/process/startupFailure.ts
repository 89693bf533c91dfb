/** Ends a failed start-up with one line naming the problem (the stack helps nobody reading a log tail). */
export function exitOnStartupFailure(error: unknown): never {
  console.error(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
