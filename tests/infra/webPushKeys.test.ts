import { execFile } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fakeCommand } from './workflowSteps';
import { root } from './settingsSources';

/**
 * infra/modules/webPushKeys.sh, the deployment script that makes the Web Push VAPID pair once, run
 * with a fake `az` keeping Key Vault secrets in a folder: a first deploy stores a pair browsers can
 * subscribe with, every later deploy keeps it, and a refused read (the role still propagating) is
 * retried, never taken for "no key yet".
 */
const script = path.join(root, 'infra', 'modules', 'webPushKeys.sh');
let dir: string;
let vault: string;
const secret = (name: string) => path.join(vault, name);

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'vapid-keys-'));
  vault = path.join(dir, 'vault');
  mkdirSync(vault, { recursive: true });
  // az keyvault secret show|set --vault-name V --name N [--value X ...]; REFUSE_READS=n refuses the first n reads.
  fakeCommand(
    path.join(dir, 'bin'),
    'az',
    `name=""; value=""; verb="$3"
while [ $# -gt 0 ]; do case "$1" in --name) name="$2"; shift ;; --value) value="$2"; shift ;; esac; shift; done
if [ "$verb" = show ]; then
  count=$(cat "${vault}/.reads" 2>/dev/null || echo 0); echo $((count + 1)) > "${vault}/.reads"
  if [ "$count" -lt "\${REFUSE_READS:-0}" ]; then echo "(Forbidden) Caller is not authorized" >&2; exit 1; fi
  [ -f "${vault}/$name" ] && { echo "https://vault/secrets/$name"; exit 0; }
  echo "(SecretNotFound) A secret with (name/id) $name was not found" >&2; exit 3
fi
printf '%s' "$value" > "${vault}/$name"`,
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      [script],
      { env: { PATH: `${path.join(dir, 'bin')}:${process.env['PATH'] ?? ''}`, VAULT_NAME: 'kv-test', RETRY_SECONDS: '0', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('the Web Push VAPID keys of a deployment', () => {
  it('makes a pair on the first deploy: a P-256 public point and its private key, base64url', async () => {
    const result = await run();
    expect(result.code).toBe(0);
    expect(result.output).toContain('made a new pair');
    const publicKey = readFileSync(secret('webpush-vapid-public-key'), 'utf8');
    const privateKey = readFileSync(secret('webpush-vapid-private-key'), 'utf8');
    expect(publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const pair = createECDH('prime256v1');
    pair.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    expect(pair.getPublicKey('base64url')).toBe(publicKey);
  });

  it('keeps the pair on every later deploy', async () => {
    await run();
    const before = readFileSync(secret('webpush-vapid-public-key'), 'utf8');
    const again = await run();
    expect(again.code).toBe(0);
    expect(again.output).toContain('kept the pair');
    expect(readFileSync(secret('webpush-vapid-public-key'), 'utf8')).toBe(before);
  });

  it('retries a refused read instead of replacing the pair', async () => {
    await run();
    const before = readFileSync(secret('webpush-vapid-private-key'), 'utf8');
    writeFileSync(path.join(vault, '.reads'), '0');
    const result = await run({ REFUSE_READS: '3' });
    expect(result.code).toBe(0);
    expect(result.output).toContain('kept the pair');
    expect(readFileSync(secret('webpush-vapid-private-key'), 'utf8')).toBe(before);
  });

  it('fails the deploy when Key Vault keeps refusing, storing nothing', async () => {
    const result = await run({ REFUSE_READS: '100' });
    expect(result.code).not.toBe(0);
    expect(result.output).toContain('refused reading webpush-vapid-private-key');
    expect(existsSync(secret('webpush-vapid-private-key'))).toBe(false);
  });
});
