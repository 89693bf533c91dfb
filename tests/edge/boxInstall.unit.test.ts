import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** The unit's `[Service]` settings as systemd reads them (one value per key, the last wins). */
function serviceSettings(text: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      continue;
    }
    if (section !== 'Service') continue;
    const [key, ...rest] = line.split('=');
    settings.set(key!, [...(settings.get(key!) ?? []), rest.join('=')]);
  }
  return settings;
}

describe('the box install: edge/install/box-agent.service', () => {
  const unit = readFileSync(path.join(root, 'edge', 'install', 'box-agent.service'), 'utf8');
  const service = serviceSettings(unit);
  const one = (key: string) => service.get(key)?.at(-1);

  it('runs the agent bundle the build produces, as an unprivileged user, and restarts it', () => {
    expect(readFileSync(path.join(root, 'development', 'build.mjs'), 'utf8')).toContain("out: 'edge-agent'");
    expect(one('ExecStart')).toMatch(/^\/usr\/bin\/node \/opt\/box-agent\/edge-agent\.js$/);
    expect(one('User')).toBe('box-agent');
    expect(one('User')).not.toBe('root');
    expect(one('Restart')).toBe('always');
    expect(one('NoNewPrivileges')).toBe('yes');
  });

  it('keeps the consent file in the state directory systemd keeps, the one writable place', () => {
    expect(one('StateDirectory')).toBe('box-agent');
    expect(one('ProtectSystem')).toBe('strict');
    const stateFile = service
      .get('Environment')
      ?.map((value) => /^SVC_CONNECTOR_STATE_FILE=(.+)$/.exec(value)?.[1])
      .find(Boolean);
    expect(stateFile).toBe(`/var/lib/${one('StateDirectory')}/connector-state.json`);
  });

  it('is what the install steps use, with the one-time publication', () => {
    const doc = readFileSync(path.join(root, 'docs', 'box-connector.md'), 'utf8');
    const install = doc.slice(doc.indexOf('## Install on a box'));
    expect(install).toContain('edge/install/box-agent.service');
    expect(install).toContain('useradd --system');
    expect(install).toMatch(/create publication club_data_\S+ for table public\.hits/);
    expect(install).toContain('systemctl enable --now box-agent');
  });
});
