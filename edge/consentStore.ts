import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CONSENT_STATES, type ConsentState } from '../shared/boxConnector/consentGate';
import type { BoxConsentReport } from '../shared/boxConnector/consentReport';

/**
 * The club's data-sharing consent as the box keeps it: a small JSON file on the box
 * (SVC_CONNECTOR_STATE_FILE), written whole through a temporary file and a rename, so a crash
 * never leaves half a decision. A missing file is NONE (a new box); a file that cannot be read
 * or parsed is NONE as well, with the problem named: the gate fails closed.
 */
export interface ConsentRecord {
  state: ConsentState;
  /** When the decision was recorded on this box (null for NONE without a file). */
  changedAt: string | null;
  /** Who recorded it, as the operator typed it (a name, a board resolution). */
  changedBy: string | null;
}

export interface ConsentReading {
  consent: ConsentRecord;
  /** Why the file could not be used; the consent then counts as NONE. */
  problem?: string;
}

const NONE: ConsentRecord = { state: 'NONE', changedAt: null, changedBy: null };

export async function readConsent(file: string): Promise<ConsentReading> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { consent: NONE };
    return { consent: NONE, problem: `The consent file ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).` };
  }
  try {
    const parsed = JSON.parse(text) as { consent?: { state?: unknown; changedAt?: unknown; changedBy?: unknown } };
    const state = parsed.consent?.state;
    if (typeof state !== 'string' || !(CONSENT_STATES as readonly string[]).includes(state)) {
      return { consent: NONE, problem: `The consent file ${file} holds no valid consent state.` };
    }
    return {
      consent: {
        state: state as ConsentState,
        changedAt: typeof parsed.consent?.changedAt === 'string' ? parsed.consent.changedAt : null,
        changedBy: typeof parsed.consent?.changedBy === 'string' ? parsed.consent.changedBy : null,
      },
    };
  } catch {
    return { consent: NONE, problem: `The consent file ${file} is not valid JSON.` };
  }
}

export async function writeConsent(file: string, consent: ConsentRecord): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify({ consent }, null, 2) + '\n', { mode: 0o600 });
  await rename(temporary, file);
}

/** One consent change as the box's audit log keeps it. */
export interface ConsentAuditEntry {
  at: string;
  by: string;
  from: ConsentState;
  to: ConsentState;
}

/** Most entries the audit log keeps; older ones are dropped when a change is appended. */
export const MAX_CONSENT_AUDIT_ENTRIES = 1000;

/** The audit log lives beside the consent file: connector-state.json → connector-state.audit.jsonl. */
export function consentAuditFile(stateFile: string): string {
  return stateFile.replace(/\.json$/i, '') + '.audit.jsonl';
}

/** The audit entries, oldest first; lines that cannot be read are left out. */
export async function readConsentAudit(stateFile: string): Promise<ConsentAuditEntry[]> {
  let text: string;
  try {
    text = await readFile(consentAuditFile(stateFile), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: ConsentAuditEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as Partial<ConsentAuditEntry>;
      if (typeof entry.at === 'string' && typeof entry.by === 'string' && isState(entry.from) && isState(entry.to)) {
        entries.push({ at: entry.at, by: entry.by, from: entry.from, to: entry.to });
      }
    } catch {
      // A torn last line (power loss) is skipped, not fatal.
    }
  }
  return entries;
}

/**
 * Appends one change, keeping the newest MAX_CONSENT_AUDIT_ENTRIES: the file is rewritten whole
 * through a temporary file and a rename, like the consent (changes are rare; the file stays small).
 */
export async function appendConsentAudit(stateFile: string, entry: ConsentAuditEntry): Promise<void> {
  const file = consentAuditFile(stateFile);
  const kept = [...(await readConsentAudit(stateFile)), entry].slice(-MAX_CONSENT_AUDIT_ENTRIES);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, kept.map((item) => JSON.stringify(item)).join('\n') + '\n', { mode: 0o600 });
  await rename(temporary, file);
}

function isState(value: unknown): value is ConsentState {
  return typeof value === 'string' && (CONSENT_STATES as readonly string[]).includes(value);
}

/** The consent as the box reports it with its pushes (an unreadable file reports NONE, as the gate reads it). */
export async function consentReport(stateFile: string): Promise<BoxConsentReport> {
  const { consent } = await readConsent(stateFile);
  return { state: consent.state, changedAt: consent.changedAt };
}
