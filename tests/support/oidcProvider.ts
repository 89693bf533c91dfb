import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..', '..');

export interface ProviderProcess {
  issuer: string;
  jwksUrl: string;
  /** What the process wrote to stderr (its warnings), for a failure message. */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * The local OpenID provider as `npm start` runs it (development/oidcProvider), in a process of its
 * own: oidc-provider is an ES module that the test runner's CommonJS cannot load.
 */
export function startProviderProcess(options: {
  origins: string[];
  audience?: string;
  accessTokenTtlSeconds?: number;
  refreshTokenTtlSeconds?: number;
}): Promise<ProviderProcess> {
  const args = [
    require.resolve('tsx/cli'),
    'development/oidcProvider/main.ts',
    ...options.origins.flatMap((origin) => ['--origin', origin]),
    '--audience',
    options.audience ?? 'shooting-club-api',
    '--access-token-ttl',
    String(options.accessTokenTtlSeconds ?? 600),
    '--refresh-token-ttl',
    String(options.refreshTokenTtlSeconds ?? 3600),
  ];
  const child: ChildProcess = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`the local OpenID provider did not start in 30 s:\n${stdout}\n${stderr}`));
    }, 30_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the local OpenID provider exited with ${code}:\n${stdout}\n${stderr}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{"issuer"'));
      if (!line) return;
      clearTimeout(timer);
      const { issuer, jwksUrl } = JSON.parse(line) as { issuer: string; jwksUrl: string };
      resolve({
        issuer,
        jwksUrl,
        stderr: () => stderr,
        async stop() {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}

/** `npm run token -- --user <name>` against a provider: a real access token got through its login page. */
export async function providerToken(provider: { issuer: string }, origin: string, username: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [require.resolve('tsx/cli'), 'development/token.ts', '--user', username, '--issuer', provider.issuer, '--origin', origin],
    { cwd: root },
  );
  return stdout.trim();
}

/**
 * The settings that send the host's sign-in to `provider` (as `npm start` configures it) for
 * tokens of `audience`, with the token paste off: for `overrideSettings`.
 */
export function providerSignInSettings(provider: ProviderProcess, audience: string): Record<string, string> {
  return {
    AUTH_JWKS_URL: provider.jwksUrl,
    AUTH_ISSUER: provider.issuer,
    AUTH_AUDIENCE: audience,
    AUTH_OIDC_AUTHORITY: provider.issuer,
    AUTH_PORTAL_CLIENT_ID: 'portal',
    AUTH_APP_CLIENT_ID: 'app',
    AUTH_OIDC_SCOPE: 'openid profile offline_access api',
    AUTH_TOKEN_PASTE: 'false',
  };
}
