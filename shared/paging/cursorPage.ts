import * as v from 'valibot';

/**
 * A page of a keyset-paged list as clients get it: its `items`, the list's own fields if any, and
 * `nextCursor` (null on the last page). Only valibot, so browser bundles may take its types.
 */
export function cursorPageSchema<const TItem extends v.GenericSchema, const TEntries extends v.ObjectEntries = Record<never, never>>(
  item: TItem,
  entries: TEntries = {} as TEntries,
) {
  return v.object({ items: v.array(item), ...entries, nextCursor: v.nullable(v.string()) });
}
