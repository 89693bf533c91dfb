import { parseArgs } from 'node:util';
import { stopOnSignals } from '../../shared/process/signals';
import { startOidcProvider } from './server';

const USAGE = `Usage: tsx development/oidcProvider/main.ts --origin <function host origin>... [options]

The local OpenID provider on its own (npm start runs it in-process). Prints one JSON line
{"issuer","jwksUrl"} when it listens, then serves until SIGINT/SIGTERM.

  --origin <url>             origin of the function host, repeatable (redirect URIs /portal/ and /app/ on it)
  --audience <aud>           aud of the access tokens (default shooting-club-api)
  --port <n>                 port on 127.0.0.1 (default 0: a free one)
  --access-token-ttl <s>     access token lifetime in seconds (default 600)
  --refresh-token-ttl <s>    refresh token lifetime in seconds (default 86400)`;

function seconds(value: string, name: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1 || parsed > 30 * 86_400)
    throw new Error(`${name} must be whole seconds between 1 and 2592000`);
  return parsed;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      origin: { type: 'string', multiple: true, default: [] },
      audience: { type: 'string', default: 'shooting-club-api' },
      port: { type: 'string', default: '0' },
      'access-token-ttl': { type: 'string', default: '600' },
      'refresh-token-ttl': { type: 'string', default: '86400' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.origin.length) throw new Error(`--origin is required\n\n${USAGE}`);
  const provider = await startOidcProvider({
    port: Number(values.port),
    appOrigins: values.origin.map((origin) => new URL(origin).origin),
    audience: values.audience,
    accessTokenTtlSeconds: seconds(values['access-token-ttl'], '--access-token-ttl'),
    refreshTokenTtlSeconds: seconds(values['refresh-token-ttl'], '--refresh-token-ttl'),
  });
  console.log(JSON.stringify({ issuer: provider.issuer, jwksUrl: provider.jwksUrl }));
  stopOnSignals(() => provider.close());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
