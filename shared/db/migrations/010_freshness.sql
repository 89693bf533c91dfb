-- Data freshness: each club's training plan, the evaluated status per club with its history of
-- changes, the starter-list channel of the on-site boxes, and once-only markers for operator notices.

-- A club's range-supervision schedule: weekly evenings in the club's IANA time zone. No row means
-- the default plan (Wednesday 18:00-20:00, Europe/Berlin), reported as planSource "assumed".
-- evenings is the validated list [{ weekday, start, end, endsNextDay }] (shared/freshness/trainingPlan.ts).
create table club_training_plan (
  club_id text primary key references club (id) on delete cascade,
  time_zone text not null,
  evenings jsonb not null check (jsonb_typeof(evenings) = 'array'),
  updated_at timestamptz not null default now(),
  updated_by text not null
);

-- The status the freshness timer last saw per club, and since when it holds.
-- stale_notice_evening_start: the evening for which the club's leaders were last told "stale"
-- (once per evaluated evening); stale_notice_open: that notice still awaits its recovery notice.
create table club_freshness_state (
  club_id text primary key references club (id) on delete cascade,
  status text not null check (status in ('ok', 'stale', 'unknown', 'error')),
  since timestamptz not null,
  evening_start timestamptz,
  evening_end timestamptz,
  evaluated_at timestamptz not null,
  stale_notice_evening_start timestamptz,
  stale_notice_open boolean not null default false
);

-- Status changes only, each with the evening it was evaluated for: "since when stale" and the
-- club's record of outages.
create table club_freshness_history (
  id bigint generated always as identity primary key,
  club_id text not null references club (id) on delete cascade,
  status text not null check (status in ('ok', 'stale', 'unknown', 'error')),
  previous_status text check (previous_status in ('ok', 'stale', 'unknown', 'error')),
  evening_start timestamptz,
  evening_end timestamptz,
  changed_at timestamptz not null
);
create index club_freshness_history_club_idx on club_freshness_history (club_id, changed_at desc);

-- Starter lists a box pushed: no personal data, only what tells a live club software from a dead one.
create table edge_starterlist (
  club_id text not null references club (id) on delete cascade,
  list_id text not null,
  name text,
  list_date date not null,
  discipline text not null,
  lane_count integer not null check (lane_count between 0 and 1000),
  starters_count integer not null check (starters_count between 0 and 100000),
  first_seen_at timestamptz not null,
  last_seen_at timestamptz not null,
  primary key (club_id, list_id)
);

-- What a box last told the cloud about itself through the starter-list channel: when it last
-- carried a starter list, and the result of its own check of the mirror database.
create table edge_box_signal (
  club_id text primary key references club (id) on delete cascade,
  last_push_at timestamptz not null,
  last_starterlist_seen_at timestamptz,
  box_check_at timestamptz,
  box_check_evening_start timestamptz,
  box_check_hits_after boolean
);

-- Operator notices that must go out once (one per ingest quarantine): the key is claimed before sending.
create table ops_notice (
  notice_key text primary key,
  sent_at timestamptz not null default now()
);
