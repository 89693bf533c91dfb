import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type Provider from 'oidc-provider';
import { authenticateDemoUser } from './demoUsers';
import { loginPage } from './pages';
import { createLocalProvider, type LocalProviderOptions } from './provider';

export interface RunningOidcProvider {
  /** The issuer (`iss` of its tokens), also the authority a browser discovers from. */
  issuer: string;
  jwksUrl: string;
  close(): Promise<void>;
}

export interface StartOptions extends Omit<LocalProviderOptions, 'issuer'> {
  /** 0: a free port. */
  port: number;
}

/** Form bodies of the login page are tiny; anything larger is refused. */
const MAX_FORM_BYTES = 4_096;

/**
 * The local OpenID provider on 127.0.0.1 only (its interactions accept demo users, so it must
 * never be reachable from elsewhere): oidc-provider's routes, plus the login page of its own at
 * /interaction/{uid}.
 */
export async function startOidcProvider(options: StartOptions): Promise<RunningOidcProvider> {
  // The issuer names the port, so the server listens before the provider exists; it serves once both do.
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = await createLocalProvider({ ...options, issuer });
  const providerRoutes = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const interaction = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(new URL(req.url ?? '/', 'http://local').pathname);
    if (!interaction) {
      void providerRoutes(req, res);
      return;
    }
    handleInteraction(provider, req, res, interaction[2]).catch((error: unknown) => {
      const text = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`The sign-in could not continue: ${text}`);
    });
  });
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handleInteraction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse, step: string | undefined) {
  const details = await provider.interactionDetails(req, res);
  const clientId = typeof details.params['client_id'] === 'string' ? details.params['client_id'] : '';
  const client = clientId ? await provider.Client.find(clientId) : undefined;
  const clientName = client?.clientName ?? (clientId || 'an application');
  const html = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body);
  };
  if (req.method === 'GET' && step === undefined) {
    html(200, loginPage({ uid: details.uid, clientName }));
    return;
  }
  if (req.method !== 'POST' || step === undefined) {
    html(405, 'Method not allowed');
    return;
  }
  const form = await readForm(req);
  if (step === 'abort') {
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'The user cancelled the sign-in.' },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  const username = form.get('username') ?? '';
  const user = authenticateDemoUser(username, form.get('password') ?? '');
  if (!user) {
    html(401, loginPage({ uid: details.uid, clientName, username, error: 'Unknown username or wrong password.' }));
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: user.sub } }, { mergeWithLastSubmission: false });
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += String(chunk);
    if (body.length > MAX_FORM_BYTES) throw new Error('the form is too large');
  }
  return new URLSearchParams(body);
}
