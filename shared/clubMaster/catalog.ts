import type { Queryable } from '../db/client';
import { selectCatalogPage, type CatalogRow } from './catalogRepository';
import type { CatalogEntry, CatalogPage, CatalogQuery } from './schemas';

/**
 * The service's club catalog: every service club (active or inactive) plus every club number a
 * box currently reports that is not a service club yet (`imported_only`; the channel carries no
 * personal data, so no consent is needed). A number reported by several boxes appears once, with
 * the name of the most recent report. Search `q` matches name or club number, case-insensitively,
 * anywhere in the text. Offset pagination in a stable order: name, club number, club id.
 */
export async function listClubCatalog(sql: Queryable, query: CatalogQuery): Promise<CatalogPage> {
  const rows = await selectCatalogPage(sql, query);
  const total = rows[0]?.total ?? (query.offset > 0 ? await countCatalog(sql, query) : 0);
  const items = rows.map(toEntry);
  const nextOffset = query.offset + items.length < total ? query.offset + items.length : null;
  return { items, total, limit: query.limit, offset: query.offset, nextOffset };
}

/** The total for a page past the end (the windowed count above has no row to ride on). */
async function countCatalog(sql: Queryable, query: CatalogQuery): Promise<number> {
  const page = await listClubCatalog(sql, { ...query, offset: 0, limit: 1 });
  return page.total;
}

function toEntry(row: CatalogRow): CatalogEntry {
  return {
    clubId: row.clubId,
    vereinsId: row.vereinsId,
    name: row.name,
    status: row.status,
    reportingBoxes: row.reportingBoxes,
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    edgeTokenLastUsedAt: row.edgeTokenLastUsedAt?.toISOString() ?? null,
  };
}
