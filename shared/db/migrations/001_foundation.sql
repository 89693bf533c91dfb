-- Foundation: the clubs of the service. Areas add their own tables in later migrations.
create table club (
  id text primary key default gen_random_uuid()::text,
  vereins_id text unique,
  name text not null,
  status text not null default 'active' check (status in ('active', 'inactive')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

-- Club roles come from here, not from the token.
create table club_membership (
  club_id text not null references club (id) on delete cascade,
  user_id text not null,
  role text not null check (role in ('member', 'leader')),
  created_at timestamptz not null default now(),
  primary key (club_id, user_id)
);
create index club_membership_user_idx on club_membership (user_id);
