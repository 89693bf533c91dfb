/** The environment a command reads its settings from (process.env in production). */
export type CommandEnv = Record<string, string | undefined>;

/** What a command does with its arguments; resolves with the process's exit code. */
export type CommandRun = (args: string[], env: CommandEnv) => Promise<number>;

/** A production command: `node dist/ops.js <name> [args]` (docs/decisions/007-production-commands.md). */
export interface Command {
  name: string;
  /** The arguments, for the usage text. */
  usage: string;
  /** Runs with its arguments; resolves with the process's exit code. */
  run: CommandRun;
}

/** Exit codes every command shares; a command's own codes are documented with it. */
export const COMMAND_EXIT = {
  /** The command failed. */
  failed: 1,
  /** A setting is missing or invalid: nothing was done. */
  settings: 2,
  /** No or an unknown command name. */
  usage: 64,
} as const;
