/** A box as the cleanup timer sees it: its club, its last report and its last token use. */
export interface BoxActivity {
  clubId: string;
  lastReportedAt: Date;
  edgeTokenLastUsedAt: Date | null;
}

export interface StaleBox {
  clubId: string;
  lastReportedAt: string;
  edgeTokenLastUsedAt: string | null;
  hoursSinceReport: number;
}

const HOUR_MS = 3_600_000;

/**
 * Boxes that reported before but not within `staleAfterHours` of `now`. Boxes that never
 * reported are not listed: the push is off until the operator enables it on the box.
 */
export function findStaleBoxes(boxes: readonly BoxActivity[], now: Date, staleAfterHours: number): StaleBox[] {
  const cutoff = now.getTime() - staleAfterHours * HOUR_MS;
  return boxes
    .filter((box) => box.lastReportedAt.getTime() < cutoff)
    .sort((a, b) => a.lastReportedAt.getTime() - b.lastReportedAt.getTime() || a.clubId.localeCompare(b.clubId))
    .map((box) => ({
      clubId: box.clubId,
      lastReportedAt: box.lastReportedAt.toISOString(),
      edgeTokenLastUsedAt: box.edgeTokenLastUsedAt?.toISOString() ?? null,
      hoursSinceReport: Math.floor((now.getTime() - box.lastReportedAt.getTime()) / HOUR_MS),
    }));
}
