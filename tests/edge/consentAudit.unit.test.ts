import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appendConsentAudit, consentAuditFile, MAX_CONSENT_AUDIT_ENTRIES, readConsentAudit } from '../../edge/consentStore';

describe('the consent audit log beside the consent file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'consent-audit-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lives beside the state file and keeps only the newest entries', async () => {
    const stateFile = path.join(dir, 'connector-state.json');
    expect(consentAuditFile(stateFile)).toBe(path.join(dir, 'connector-state.audit.jsonl'));
    expect(await readConsentAudit(stateFile)).toEqual([]);
    for (let index = 0; index < MAX_CONSENT_AUDIT_ENTRIES + 5; index += 1) {
      await appendConsentAudit(stateFile, {
        at: `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z`,
        by: `entry ${index}`,
        from: 'NONE',
        to: 'GRANTED',
      });
    }
    const entries = await readConsentAudit(stateFile);
    expect(entries).toHaveLength(MAX_CONSENT_AUDIT_ENTRIES);
    expect(entries[0]!.by).toBe('entry 5');
    expect(entries.at(-1)!.by).toBe(`entry ${MAX_CONSENT_AUDIT_ENTRIES + 4}`);
  });

  it('skips a torn or foreign line instead of failing', async () => {
    const stateFile = path.join(dir, 'torn.json');
    writeFileSync(
      consentAuditFile(stateFile),
      '{"at":"2026-01-01T00:00:00Z","by":"Board","from":"NONE","to":"GRANTED"}\n{"at":"2026-01-02T00:00:00Z","by":"x","from":"NONE","to":"MAYBE"}\n{"at":"20',
    );
    await appendConsentAudit(stateFile, { at: '2026-01-03T00:00:00Z', by: 'Chair', from: 'GRANTED', to: 'REVOKED' });
    expect((await readConsentAudit(stateFile)).map((entry) => entry.by)).toEqual(['Board', 'Chair']);
    expect(readFileSync(consentAuditFile(stateFile), 'utf8').trim().split('\n')).toHaveLength(2);
  });
});
