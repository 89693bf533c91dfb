-- Club master-data channel: edge credentials of on-site boxes, the clubs each box reports
-- (table "ClubDataKnownClub", named as in the specification so operators find it under that
-- name), one summary row per reporting box, and the score data source that adopt consults.

-- One row per edge API token. Only the SHA-256 of the token is stored; the token itself is
-- shown once when it is created. A box's token is bound to exactly one service club.
create table edge_token (
  id text primary key default gen_random_uuid()::text,
  club_id text not null references club (id) on delete cascade,
  token_hash text not null unique check (token_hash ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  last_used_at timestamptz
);
create index edge_token_club_idx on edge_token (club_id);

-- The clubs known to a box's club software, keyed per reporting box and club number.
create table "ClubDataKnownClub" (
  "reportedByClubId" text not null references club (id) on delete cascade,
  "vereinsId" text not null check (char_length("vereinsId") between 1 and 32),
  "name" text not null check (char_length("name") between 1 and 200),
  "firstSeenAt" timestamptz not null,
  "lastSeenAt" timestamptz not null,
  "sourceDeleted" boolean not null default false,
  "sourceDeletedAt" timestamptz,
  primary key ("reportedByClubId", "vereinsId"),
  -- sourceDeletedAt is when the row was first missing from a report; retention counts from it.
  constraint "ClubDataKnownClub_deleted_at_check" check ("sourceDeleted" = ("sourceDeletedAt" is not null))
);
-- Adopt looks clubs up by number across all boxes. Deliberately no index involves "sourceDeleted",
-- "lastSeenAt" or "name": a sync rewrites those on every row of the box, and with no index on them
-- (and free space left on each page) most of those updates are heap-only (HOT) and cheap. The daily purge
-- scans the table instead of keeping an index on "sourceDeletedAt".
create index "ClubDataKnownClub_vereinsId_idx" on "ClubDataKnownClub" ("vereinsId");
alter table "ClubDataKnownClub" set (fillfactor = 70);

-- Last report per box, so the cleanup timer can tell boxes that stopped reporting (an empty
-- report leaves no active rows behind, so the rows themselves cannot tell).
create table club_master_report (
  club_id text primary key references club (id) on delete cascade,
  last_reported_at timestamptz not null,
  reported integer not null,
  added integer not null,
  restored integer not null,
  refreshed integer not null,
  marked_deleted integer not null
);

-- Score data source: club data hits as the ingest path writes them. source_club_id is the club
-- number (vereinsId) the hit came from; freshness reads created_at.
create table club_data_hit (
  id bigserial primary key,
  source_club_id text not null,
  created_at timestamptz not null default now()
);
create index club_data_hit_source_created_idx on club_data_hit (source_club_id, created_at desc);
