import * as v from 'valibot';

/**
 * The service clubs behind the club numbers an answer names (the ingest records name clubs by
 * their number, the topic's `club.<number>`), so the portal can link each to its club page.
 */
export const NamedClubsSchema = v.array(v.object({ vereinsId: v.string(), clubId: v.string(), name: v.string() }));
export type NamedClubs = v.InferOutput<typeof NamedClubsSchema>;
