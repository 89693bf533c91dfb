import { parseArgs } from 'node:util';
import { SignJWT } from 'jose';
import { isPlatformRole, PLATFORM_ROLES } from '../shared/auth/roles';
import { getSettings } from '../shared/config/settings';
import { loadLocalSettings } from './local/environment';

const USAGE = `Usage: npm run token -- --sub <user id> [--role <role>]... [--hours <1-720>]

Prints a local HS256 token (signed with AUTH_JWT_SECRET) for calling the local host:
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
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
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
  const token = await new SignJWT({ roles: values.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(values.sub)
    .setIssuer(settings.AUTH_ISSUER)
    .setAudience(settings.AUTH_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${hours}h`)
    .sign(new TextEncoder().encode(settings.AUTH_JWT_SECRET));
  console.log(token);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
