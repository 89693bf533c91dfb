import { parseArgs } from 'node:util';
import { isPlatformRole, PLATFORM_ROLES } from '../shared/auth/roles';
import { getSettings } from '../shared/config/settings';
import { loadLocalSettings } from './local/localSettings';
import { DEMO_USERS } from './oidcProvider/demoUsers';
import { runningOidcProvider } from './oidcProvider/issuerFile';

const USAGE = `Usage: npm run token -- --sub <user id> [--role <role>]... [--hours <1-720>]
       npm run token -- --user <demo user> [--issuer <url>] [--origin <url>]

With --user: signs the demo user in at the local OpenID provider that npm start runs (through
its login page, code + PKCE, client "portal") and prints the access token, which that host accepts:
  curl -H "authorization: Bearer $(npm run --silent token -- --user demo-admin)" ...

  --user <name>    a demo user of development/oidcProvider/demoUsers.json (demo-admin, demo-ops, ...)
  --issuer <url>   the provider (default: the one npm start of this checkout runs)
  --origin <url>   the function host whose portal redirect URI to use (default http://127.0.0.1:PORT)

Otherwise prints a local HS256 token (signed with AUTH_JWT_SECRET), for a host without a provider:
  curl -H "authorization: Bearer $(npm run --silent token -- --sub u1 --role platform_admin)" ...

  --sub <user id>  the token's subject (required)
  --role <role>    a platform role, repeatable: ${PLATFORM_ROLES.join(', ')}
                   (club roles such as leader come from club_membership, not from the token)
  --hours <n>      lifetime in hours (default 8)
  --help           this text`;

/** `npm run token -- --sub u1 --role platform_admin [--role ops_admin] [--hours 8]`: a local HS256 token. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      sub: { type: 'string' },
      role: { type: 'string', multiple: true, default: [] },
      hours: { type: 'string', default: '8' },
      user: { type: 'string' },
      issuer: { type: 'string' },
      origin: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (values.user !== undefined) {
    console.log(await providerToken(values.user, values.issuer, values.origin));
    return;
  }
  if (!values.sub) throw new Error(`--sub <user id> is required\n\n${USAGE}`);
  const unknown = values.role.filter((role) => !isPlatformRole(role));
  if (unknown.length) throw new Error(`Unknown role(s): ${unknown.join(', ')}. Valid roles: ${PLATFORM_ROLES.join(', ')}`);
  const hours = Number(values.hours);
  if (!Number.isFinite(hours) || hours <= 0 || hours > 24 * 30) throw new Error('--hours must be between 0 and 720');

  loadLocalSettings();
  const settings = getSettings();
  if (settings.AUTH_JWKS_URL || !settings.AUTH_JWT_SECRET) {
    throw new Error('Local tokens need AUTH_JWT_SECRET and no AUTH_JWKS_URL (production tokens come from Entra ID)');
  }
  // jose loads only for the token itself, not for the usage or a refused argument.
  const { signLocalToken } = await import('./local/localToken');
  const token = await signLocalToken(settings, values.sub, { roles: values.role, hours });
  console.log(token);
  const issuer = await runningOidcProvider();
  if (issuer) {
    console.error(
      `Note: npm start runs the local OpenID provider ${issuer}; that host accepts only its tokens: npm run token -- --user demo-admin`,
    );
  }
}

/** An access token of the local OpenID provider for a demo user, got through its login page. */
async function providerToken(username: string, issuerOption: string | undefined, originOption: string | undefined): Promise<string> {
  if (!DEMO_USERS.some((user) => user.username === username)) {
    throw new Error(`Unknown demo user ${username}. Demo users: ${DEMO_USERS.map((user) => user.username).join(', ')}`);
  }
  loadLocalSettings();
  const issuer = issuerOption ?? (await runningOidcProvider());
  if (!issuer) throw new Error('No local OpenID provider is running: start one with npm start (or name it with --issuer)');
  // Loaded for --user alone: the OpenID client is not needed for a local token or the usage.
  const { scriptedSignIn } = await import('./oidcProvider/scriptedSignIn');
  const { accessToken } = await scriptedSignIn({
    issuer,
    clientId: 'portal',
    redirectUri: `${originOption ? new URL(originOption).origin : `http://127.0.0.1:${getSettings().PORT}`}/portal/`,
    username,
  });
  return accessToken;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
