import type { NotificationPreferences } from './types';

/**
 * The v1 `notifications` block as a form: every key but `version` becomes one field, in the
 * block's own order, so a key added to the block shows up (and its missing label fails the unit
 * test). Pure, so unit tests import it.
 */
export type FieldKind = 'flag' | 'mode' | 'time';
export interface SettingsField {
  /** The key path in the block, e.g. ['email', 'categories', 'training']. */
  path: string[];
  kind: FieldKind;
  value: boolean | string | null;
}
export interface SettingsSection {
  /** `email`, `categories` (email.categories), `push`, … */
  name: string;
  fields: SettingsField[];
}

type Node = Record<string, unknown>;

export function settingsSections(block: NotificationPreferences): SettingsSection[] {
  const sections: SettingsSection[] = [];
  const visit = (node: Node, path: string[]) => {
    const section: SettingsSection = { name: path[path.length - 1] ?? '', fields: [] };
    sections.push(section);
    for (const [key, value] of Object.entries(node)) {
      const at = [...path, key];
      if (typeof value === 'object' && value !== null) visit(value as Node, at);
      else section.fields.push({ path: at, kind: kindOf(at, value), value: value as boolean | string | null });
    }
  };
  for (const [key, value] of Object.entries(block)) if (key !== 'version') visit(value as Node, [key]);
  return sections.filter((section) => section.fields.length > 0);
}

function kindOf(path: string[], value: unknown): FieldKind {
  if (typeof value === 'boolean') return 'flag';
  return path[path.length - 1] === 'mode' ? 'mode' : 'time';
}

/** A copy of the block with the value at `path` replaced. */
export function withValue(block: NotificationPreferences, path: string[], value: boolean | string | null): NotificationPreferences {
  const copy = structuredClone(block);
  let node = copy as unknown as Node;
  for (const key of path.slice(0, -1)) node = node[key] as Node;
  const last = path[path.length - 1];
  if (last !== undefined) node[last] = value;
  return copy;
}
