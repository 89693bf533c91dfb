-- Server-written text in the reader's language (docs/languages.md; docs/challenges.md, "Texts in
-- two languages").
--
-- Challenge templates and badges keep their one `title`/`name` (and `description`) as the text
-- shown when the reader's language has none, and gain the texts per language, `{"de": …, "en": …}`,
-- either key optional. Rows written before keep `{}` and read as before.
alter table challenge
  add column titles jsonb not null default '{}',
  add column descriptions jsonb not null default '{}';
alter table challenge_badge
  add column names jsonb not null default '{}',
  add column descriptions jsonb not null default '{}';

-- An inbox entry and each of its queued deliveries name their message by a catalogue key and its
-- parameters, so the inbox renders it in the language of whoever reads it and the delivery in the
-- recipient's language at send time. `title`/`body` stay: the text in the recipient's language when
-- the entry was written, read for entries without a key (older ones) or whose key is no longer known.
alter table notification
  add column message_key text,
  add column message_params jsonb;
alter table notification_outbox
  add column message_key text,
  add column message_params jsonb;

-- One "ends within 24 hours" reminder per challenge and member, however often the member joined it
-- and however many timer runs race: the reminder is sent by the transaction whose insert was new.
create table challenge_end_reminder (
  challenge_id text not null references challenge (id) on delete cascade,
  user_id text not null,
  sent_at timestamptz not null default now(),
  primary key (challenge_id, user_id)
);
