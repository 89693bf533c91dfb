import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTokenVerifier } from '../../shared/auth/jwt';
import { getSettings } from '../../shared/config/settings';

const run = promisify(execFile);
const root = path.resolve(__dirname, '..', '..');
// Each call starts tsx, which takes seconds on a busy machine.
const token = (...args: string[]) => run(process.execPath, [require.resolve('tsx/cli'), 'development/token.ts', ...args], { cwd: root });

describe('npm run token', () => {
  it('prints a token the service accepts, with the requested subject and roles', async () => {
    const { stdout } = await token('--sub', 'u1', '--role', 'platform_admin', '--role', 'ops_admin');
    const user = await createTokenVerifier(getSettings())(stdout.trim());
    expect(user).toMatchObject({ userId: 'u1', roles: ['platform_admin', 'ops_admin'] });
  }, 30_000);

  it('refuses unknown roles and a missing subject', async () => {
    // A failed command's error message carries its stderr.
    const unknownRole = token('--sub', 'u1', '--role', 'root');
    await expect(unknownRole).rejects.toThrow(/Unknown role/);
    await expect(unknownRole).rejects.toThrow('Valid roles: platform_admin, ops_admin, billing_admin, support_admin');
    await expect(token('--role', 'ops_admin')).rejects.toThrow(/--sub/);
  }, 30_000);

  it('prints its usage for --help, without a token', async () => {
    const { stdout } = await token('--help');
    expect(stdout).toMatch(/^Usage: npm run token -- --sub <user id>/);
    expect(stdout).toContain('--role <role>');
    expect(stdout).not.toMatch(/^ey/m);
  }, 30_000);
});
