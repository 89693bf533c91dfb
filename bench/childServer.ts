import { spawn } from 'node:child_process';

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
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
    env: options.env,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the ${options.label} exited (${code})`))),
  );
  exited.catch(() => undefined);
  const url = await Promise.race([
    new Promise<string>((resolve) => child.on('message', (message: { url?: string }) => message.url && resolve(message.url))),
    exited,
  ]);
  const ask = <T>(message: string, field: string) =>
    new Promise<T>((resolve) => {
      const onMessage = (answer: Record<string, unknown>) => {
        if (answer[field] === undefined) return;
        child.off('message', onMessage);
        resolve(answer[field] as T);
      };
      child.on('message', onMessage);
      child.send(message);
    });
  return {
    url,
    cpuMicros: () => ask<number>('cpu', 'cpuMicros'),
    ask,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
