import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * A certificate for 127.0.0.1 and localhost, made at run time for the fake cost provider. The
 * Azure SDKs only speak https; the process using them trusts this certificate through
 * NODE_EXTRA_CA_CERTS, which Node reads once at start-up, so it has to be in the environment of
 * the process before that process starts (jest workers, the `npm start` child).
 */
export interface FakeTls {
  cert: string;
  key: string;
  /** The file to name in NODE_EXTRA_CA_CERTS. */
  caFile: string;
}

const CERT_FILE = 'fake-cost-provider.crt';
const KEY_FILE = 'fake-cost-provider.key';

export async function createFakeTls(directory: string): Promise<FakeTls> {
  const notBeforeDate = new Date(Date.now() - 60 * 60_000);
  const pems = await generate([{ name: 'commonName', value: 'fake cost provider (local)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate: new Date(notBeforeDate.getTime() + 7 * 24 * 60 * 60_000),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  mkdirSync(directory, { recursive: true });
  const caFile = path.join(directory, CERT_FILE);
  writeFileSync(caFile, pems.cert);
  writeFileSync(path.join(directory, KEY_FILE), pems.private, { mode: 0o600 });
  return { cert: pems.cert, key: pems.private, caFile };
}

/**
 * The certificate and key another process of the same run made (tests read them in each worker).
 * `caFile` may be a bundle beside them (pushFakes/localTrust.ts): the servers use the certificate.
 */
export function readFakeTls(caFile: string): FakeTls {
  const directory = path.dirname(caFile);
  return { cert: readFileSync(path.join(directory, CERT_FILE), 'utf8'), key: readFileSync(path.join(directory, KEY_FILE), 'utf8'), caFile };
}
