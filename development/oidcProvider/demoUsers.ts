import { createHash, timingSafeEqual } from 'node:crypto';
import { isPlatformRole, type PlatformRole } from '../../shared/auth/roles';
import data from './demoUsers.json';

/** A person of the local OpenID provider: a fixed `sub`, so club memberships seeded for it stay valid. */
export interface DemoUser {
  username: string;
  sub: string;
  name: string;
  roles: PlatformRole[];
}

/** The one password every demo user signs in with (documented in README.md). */
export const DEMO_PASSWORD: string = data.password;

export const DEMO_USERS: readonly DemoUser[] = data.users.map((user) => {
  const unknown = user.roles.filter((role) => !isPlatformRole(role));
  if (unknown.length) throw new Error(`demoUsers.json: ${user.username} has unknown role(s) ${unknown.join(', ')}`);
  return { ...user, roles: user.roles.filter(isPlatformRole) };
});

export function demoUserBySub(sub: string): DemoUser | undefined {
  return DEMO_USERS.find((user) => user.sub === sub);
}

/** The user whose username and password these are, or undefined; the password compared in constant time. */
export function authenticateDemoUser(username: string, password: string): DemoUser | undefined {
  const user = DEMO_USERS.find((candidate) => candidate.username === username.trim());
  const digest = (value: string) => createHash('sha256').update(value).digest();
  const passwordMatches = timingSafeEqual(digest(password), digest(DEMO_PASSWORD));
  return user && passwordMatches ? user : undefined;
}
