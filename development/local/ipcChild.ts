import { spawn } from 'node:child_process';

/** A helper process (a bench's server, the soak's host, the delivery fakes) spoken to over IPC. */
export interface IpcChild<Ready> {
  /** What the process sent when it was ready. */
  ready: Ready;
  /** Sends `message` and resolves with the `field` of the first answer that has one. */
  ask: <T>(message: unknown, field: string) => Promise<T>;
  /** Sends `'stop'` and resolves once the process exited (killed after 10 s if it has not). */
  stop: () => Promise<void>;
}

/**
 * Starts `script` with tsx in a process of its own (so its CPU time and memory are its own) and
 * resolves once it sends a message with `readyField`; rejects if it exits before that.
 */
export async function startIpcChild<Ready>(
  script: string,
  options: {
    readyField: string;
    /** Named in the error when the process exits before it is ready. */
    label: string;
    args?: string[];
    env?: NodeJS.ProcessEnv;
    nodeArgs?: string[];
    cwd?: string;
    /** Whether the process's stdout shows (stderr always does). */
    stdout?: 'inherit' | 'ignore';
  },
): Promise<IpcChild<Ready>> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...(options.args ?? [])], {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: options.env ?? process.env,
    stdio: ['ignore', options.stdout ?? 'inherit', 'inherit', 'ipc'],
  });
  const answer = <T>(field: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (message: unknown) => {
        if (typeof message !== 'object' || message === null || (message as Record<string, unknown>)[field] === undefined) return;
        child.off('message', onMessage);
        resolve((message as Record<string, T>)[field] as T);
      };
      child.on('message', onMessage);
    });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the ${options.label} exited (${code})`))),
  );
  exited.catch(() => undefined);
  const ready = await Promise.race([answer<Ready>(options.readyField), exited]);
  return {
    ready,
    ask: <T>(message: unknown, field: string) => {
      const answered = answer<T>(field);
      child.send(message as string);
      return answered;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
