import { format } from 'node:util';
import type { CommandEnv } from '../../ops/command';
import { runCommand } from '../../ops/runCommand';

export interface CommandOutcome {
  stdout: string;
  stderr: string;
  code: number;
}

/**
 * `node dist/ops.js <argv>` run in this process: what it writes to stdout and stderr (a line per
 * console call, as the process writes them) and its exit code. A process start costs about two
 * CPU-seconds through tsx; a file keeps one real start per command it tests and calls the other
 * cases here, where only the arguments and the database differ.
 */
export async function runCommandInProcess(argv: readonly string[], env: CommandEnv): Promise<CommandOutcome> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void stdout.push(`${format(...args)}\n`));
  const error = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void stderr.push(`${format(...args)}\n`));
  try {
    const code = await runCommand(argv, env);
    return { stdout: stdout.join(''), stderr: stderr.join(''), code };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}
