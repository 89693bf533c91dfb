import { readFileSync } from 'node:fs';
import path from 'node:path';
import { root } from './settingsSources';

/**
 * The Functions host's telemetry stays the classic Application Insights mode: host.json sets no
 * `telemetryMode` (decision 011). OpenTelemetry mode is in preview, and with it the Core Tools stop
 * running the app locally, so it could only be set in the deployed package: production would run
 * a host configuration no local run or test has run. The worker's own OpenTelemetry (the distro,
 * joined to the host's trace through the Functions instrumentation) needs no host mode.
 */
const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
const hostJson = JSON.parse(read('host.json')) as Record<string, unknown>;
const appPackage = JSON.parse(read('infra', 'app-package.json')) as { files: string[] };

describe("the host's telemetry mode", () => {
  it('host.json sets no telemetryMode: the Core Tools run what is deployed', () => {
    expect(Object.keys(hostJson)).not.toContain('telemetryMode');
  });

  it('the app package ships the repository host.json itself, not a variant made at deploy time', () => {
    expect(appPackage.files).toContain('host.json');
    expect(appPackage.files.filter((file) => /host.*\.json$/.test(file))).toEqual(['host.json']);
  });
});
