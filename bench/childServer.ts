import { spawn } from 'node:child_process';

/** A server a bench runs in a process of its own, so its CPU time is its own. */
export interface ChildServer {
  url: string;
  /** The process's CPU time so far (user + system), in µs. */
  cpuMicros(): Promise<number>;
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
  return {
    url,
    cpuMicros: () =>
      new Promise<number>((resolve) => {
        const onMessage = (message: { cpuMicros?: number }) => {
          if (message.cpuMicros === undefined) return;
          child.off('message', onMessage);
          resolve(message.cpuMicros);
        };
        child.on('message', onMessage);
        child.send('cpu');
      }),
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.send('stop');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
