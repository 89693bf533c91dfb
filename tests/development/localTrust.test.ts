import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { generate } from 'selfsigned';
import { createFakeTls, readFakeTls, type FakeTls } from '../../development/costsFake/certificate';
import { caBundleWithFakes } from '../../development/pushFakes/localTrust';

/**
 * `npm start` restarts itself trusting its push fakes' certificate. A developer behind a company
 * proxy (or with a local TLS endpoint) already names that CA in NODE_EXTRA_CA_CERTS: the restarted
 * process must trust both, or every HTTPS call to Azure fails.
 */
const run = promisify(execFile);
let dir: string;
let company: FakeTls;
let fakes: FakeTls;
const servers: https.Server[] = [];

async function serve(tls: FakeTls): Promise<string> {
  const server = https.createServer({ cert: tls.cert, key: tls.key }, (_request, response) => response.end('ok'));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

/** What a freshly started Node process with this NODE_EXTRA_CA_CERTS gets from each address. */
async function fetchedByNewProcess(caFile: string, urls: string[]): Promise<string[]> {
  const script = `Promise.all(${JSON.stringify(urls)}.map((u) => fetch(u).then((r) => r.text(), (e) => String(e.cause?.code ?? e)))).then((a) => console.log(JSON.stringify(a)))`;
  const { stdout } = await run(process.execPath, ['-e', script], { env: { PATH: process.env['PATH'], NODE_EXTRA_CA_CERTS: caFile } });
  return JSON.parse(stdout) as string[];
}

/** A CA of its own name (a company proxy's), so it cannot be mistaken for the fakes' one. */
async function companyCa(caFile: string): Promise<FakeTls> {
  const pems = await generate([{ name: 'commonName', value: 'company proxy (test)' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true, critical: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  writeFileSync(caFile, pems.cert);
  return { cert: pems.cert, key: pems.private, caFile };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'local-trust-'));
  company = await companyCa(path.join(dir, 'company-proxy.crt'));
  fakes = await createFakeTls(path.join(dir, 'push-fakes'));
});
afterAll(async () => {
  for (const server of servers) server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('npm start trusts its fakes and keeps the certificates it was given', () => {
  it('a process started with the bundle reaches both the company endpoint and the fakes', async () => {
    const [companyUrl, fakeUrl] = [await serve(company), await serve(fakes)];
    const bundle = caBundleWithFakes(company.caFile, fakes);
    expect(await fetchedByNewProcess(bundle, [companyUrl, fakeUrl])).toEqual(['ok', 'ok']);
  });

  it('without a given certificate it trusts the fakes alone', async () => {
    const fakeUrl = await serve(fakes);
    const bundle = caBundleWithFakes(undefined, fakes);
    expect(readFileSync(bundle, 'utf8').trim()).toBe(fakes.cert.trim());
    expect(await fetchedByNewProcess(bundle, [fakeUrl])).toEqual(['ok']);
  });

  it('the restarted process serves the fakes with their own certificate, not the bundle', () => {
    const bundle = caBundleWithFakes(company.caFile, fakes);
    expect(readFakeTls(bundle)).toEqual({ cert: fakes.cert, key: fakes.key, caFile: bundle });
  });
});
