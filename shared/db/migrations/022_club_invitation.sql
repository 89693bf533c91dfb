-- Invitations into a club: a leader (or a platform admin) creates one, the invitee accepts it by
-- its code and becomes a member. Only the SHA-256 of the code is stored; the code is shown once.
-- Single use: accepting sets used_at in the same transaction that inserts the membership. Rows
-- per club are bounded by the cap on open invitations (shared/clubs/invitations.ts): creating one
-- first deletes the club's expired and used invitations.
create table club_invitation (
  id text primary key default gen_random_uuid()::text,
  club_id text not null references club (id) on delete cascade,
  code_hash bytea not null unique check (octet_length(code_hash) = 32),
  created_by text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz,
  used_by text,
  check (expires_at > created_at),
  check ((used_at is null) = (used_by is null))
);
create index club_invitation_club_idx on club_invitation (club_id, created_at desc, id desc);

-- A club's member list pages leaders first, then by membership age and user id.
create index club_membership_list_idx on club_membership (club_id, role, created_at, user_id);
