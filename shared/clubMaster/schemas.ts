import { toJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { BoxConsentReportSchema } from '../boxConnector/consentReport';
import { hasNoControlCharacters, humanTextSchema } from '../validation/humanText';
import { pageLimit, pageOffset } from '../paging/limit';

/** Most clubs one report may carry; a longer list is answered with 413. */
export const MAX_CLUBS_PER_REPORT = 10_000;
/** Body limit of the sync route: room for MAX_CLUBS_PER_REPORT clubs with long non-ASCII names. */
export const MAX_REPORT_BYTES = 8 * 1024 * 1024;

/** Club number as the club software knows it: letters, digits and `.`, `_`, `/`, `-`. */
export const VereinsIdSchema = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.minLength(1, 'must not be empty'),
  v.maxLength(32, 'must be at most 32 characters'),
  v.regex(/^[A-Za-z0-9._/-]+$/, 'may contain only letters, digits, ".", "_", "/" and "-"'),
);

export { hasNoControlCharacters };

/** Club name: trimmed, 1 to 200 characters, shown as what it is (shared/validation/humanText.ts). */
export const ClubNameSchema = humanTextSchema(200);

export const ReportedClubSchema = v.object({ vereinsId: VereinsIdSchema, name: ClubNameSchema });
export type ReportedClub = v.InferOutput<typeof ReportedClubSchema>;

let itemSchema: Record<string, unknown> | undefined;

/** Same JSON Schema options as the OpenAPI builder, so the item schema reads like every other. */
const itemJsonSchema = (): Record<string, unknown> => {
  const { $schema: _ignored, ...rest } = toJsonSchema(ReportedClubSchema, {
    target: 'draft-2020-12',
    typeMode: 'input',
    errorMode: 'ignore',
  }) as Record<string, unknown>;
  return rest;
};

/**
 * What the dispatcher validates for the sync route: only the envelope. Validating the items here
 * would let `{"clubs":[{},{},…]}` with millions of entries produce millions of issues before the
 * cap is looked at; the handler checks the cap first and then the items (parseReportedClubs).
 * The metadata gives the OpenAPI document the real item schema and the cap.
 */
export const SyncReportEnvelopeSchema = v.object({
  clubs: v.pipe(
    v.array(v.unknown(), 'must be an array'),
    v.metadata({
      // Converted when the OpenAPI document is built, not when the app loads: a cold start pays for
      // nothing the first request does not need.
      get items() {
        return (itemSchema ??= itemJsonSchema());
      },
      maxItems: MAX_CLUBS_PER_REPORT,
    }),
  ),
  /** The club's data-sharing consent as the box holds it; recorded for the box's own club when it changed. */
  consent: v.optional(BoxConsentReportSchema),
});

export const SyncResultSchema = v.pipe(
  v.object({
    reported: v.number(),
    added: v.number(),
    restored: v.number(),
    refreshed: v.number(),
    markedDeleted: v.number(),
  }),
  v.title('SyncResult'),
);
export type SyncResult = v.InferOutput<typeof SyncResultSchema>;

export const CATALOG_STATUSES = ['active', 'inactive', 'imported_only'] as const;
export type CatalogStatus = (typeof CATALOG_STATUSES)[number];

/** Query of GET /api/admin/clubs. */
export const CatalogQuerySchema = v.object({
  // Control characters are refused here: PostgreSQL cannot take NUL in a text parameter at all.
  q: v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(100, 'must be at most 100 characters'),
      v.check(hasNoControlCharacters, 'must not contain control characters'),
    ),
  ),
  status: v.optional(v.picklist(CATALOG_STATUSES, 'must be active, inactive or imported_only')),
  limit: pageLimit(50, 200),
  offset: pageOffset(1_000_000),
});
export type CatalogQuery = v.InferOutput<typeof CatalogQuerySchema>;

export const CatalogEntrySchema = v.pipe(
  v.object({
    /** Service club id; null for clubs known only through the channel. */
    clubId: v.nullable(v.string()),
    vereinsId: v.nullable(v.string()),
    name: v.string(),
    status: v.picklist(CATALOG_STATUSES),
    /** Number of boxes currently reporting this club number. */
    reportingBoxes: v.number(),
    /** Most recent time a box reported this club number. */
    lastSeenAt: v.nullable(v.string()),
    /** Most recent use of an edge token bound to this service club. */
    edgeTokenLastUsedAt: v.nullable(v.string()),
  }),
  v.title('CatalogEntry'),
);
export type CatalogEntry = v.InferOutput<typeof CatalogEntrySchema>;

export const CatalogPageSchema = v.pipe(
  v.object({
    items: v.array(CatalogEntrySchema),
    total: v.number(),
    limit: v.number(),
    offset: v.number(),
    nextOffset: v.nullable(v.number()),
  }),
  v.title('CatalogPage'),
);
export type CatalogPage = v.InferOutput<typeof CatalogPageSchema>;

/** Body of POST /api/admin/clubs/adopt. */
export const AdoptBodySchema = v.object({ vereinsId: VereinsIdSchema });

export const ServiceClubSchema = v.pipe(
  v.object({
    id: v.string(),
    vereinsId: v.string(),
    name: v.string(),
    status: v.picklist(['active', 'inactive']),
  }),
  v.title('Club'),
);
export type ServiceClub = v.InferOutput<typeof ServiceClubSchema>;

export const AdoptResultSchema = v.pipe(v.object({ club: ServiceClubSchema, created: v.boolean() }), v.title('AdoptResult'));
export type AdoptResult = v.InferOutput<typeof AdoptResultSchema>;
