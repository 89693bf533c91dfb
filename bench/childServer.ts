import { startIpcChild } from '../development/local/ipcChild';

/** A server a bench runs in a process of its own, so its CPU time is its own. */
export interface ChildServer {
  url: string;
  /** The process's CPU time so far (user + system), in µs. */
  cpuMicros(): Promise<number>;
  /** Sends `message` and resolves with the `field` of the first answer that has one. */
  ask<T>(message: string, field: string): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Starts `script` with tsx in a child process and resolves once it sends `{ url }` over IPC. The
 * script answers `'cpu'` with `{ cpuMicros }` and exits on `'stop'` (killed after 10 s if not).
 */
export async function startChildServer(
  script: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; nodeArgs?: string[]; label: string },
): Promise<ChildServer> {
  const child = await startIpcChild<string>(script, { ...options, args, readyField: 'url', stdout: 'ignore' });
  return {
    url: child.ready,
    cpuMicros: () => child.ask<number>('cpu', 'cpuMicros'),
    ask: (message, field) => child.ask(message, field),
    stop: child.stop,
  };
}
