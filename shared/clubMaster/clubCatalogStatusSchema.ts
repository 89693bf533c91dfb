import * as v from 'valibot';

export const ClubCatalogStatusSchema = v.object({
  /** The club's status in the catalog: a service club is active or inactive. */
  status: v.picklist(['active', 'inactive']),
  /** Boxes whose club software currently lists the club's number (as the catalog counts them). */
  reportingBoxes: v.number(),
  /** The newest report naming the number; null when no box reports it. */
  lastSeenAt: v.nullable(v.string()),
  /** The names the boxes report for the number, when they differ from the service club's name. */
  reportedNames: v.array(v.string()),
});
export type ClubCatalogStatus = v.InferOutput<typeof ClubCatalogStatusSchema>;
