import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FakeTls } from '../costsFake/certificate';

/**
 * NODE_EXTRA_CA_CERTS names one file, read once when Node starts. `npm start` restarts itself
 * trusting its fakes' certificate; a developer may already name a CA there (a company proxy's, a
 * local TLS endpoint's), and dropping it breaks every HTTPS call to Azure. So the restarted
 * process gets one bundle: the fakes' certificate and the given file's certificates. It lies
 * beside the fakes' key, so the restarted process serves the fakes with their own certificate.
 */
export function caBundleWithFakes(given: string | undefined, tls: FakeTls): string {
  const bundle = path.join(path.dirname(tls.caFile), 'trusted-ca.pem');
  const pems = [tls.cert.trim()];
  if (given && path.resolve(given) !== path.resolve(bundle)) {
    if (existsSync(given)) pems.push(readFileSync(given, 'utf8').trim());
    else console.warn(`NODE_EXTRA_CA_CERTS names ${given}, which does not exist: only the local fakes' certificate is trusted`);
  }
  writeFileSync(bundle, `${pems.join('\n')}\n`);
  return bundle;
}
