import { useState } from 'preact/hooks';
import { ApiError, unlessGone, withQuery } from '../api';
import { formatDate, formatDateTime, t } from '../i18n';
import { hashOf } from '../routes';
import type { InvitationPage, MemberPage, MyClubs, NewInvitation } from '../types';
import { Empty, ErrorBox, LoadState, NoClub, PagedList, PersonLink, personName, Screen, useAction, useApp, useLoad, usePaged } from '../ui';

const PAGE = 20;
const clubPath = (clubId: string) => `/api/clubs/${encodeURIComponent(clubId)}`;

/** The clubs the member belongs to, each a link to its club screen. */
export function Clubs() {
  const { api } = useApp();
  const { loaded, reload } = useLoad(() => api.get<MyClubs>('/api/clubs/mine'), []);
  return (
    <Screen title={t('club.listTitle')}>
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' && loaded.data.items.length === 0 ? <NoClub text={t('club.noClubs')} /> : null}
      {loaded.state === 'ready' && loaded.data.items.length > 0 ? (
        <ul class="list" data-testid="my-clubs">
          {loaded.data.items.map((club) => (
            <li class="card" key={club.clubId}>
              <a href={hashOf({ screen: 'club', clubId: club.clubId })}>{club.name}</a>{' '}
              <span class="small muted">{t(`club.role.${club.role}`)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </Screen>
  );
}

/** One club: leaders manage members and invitations; a member may leave. */
export function Club(props: { clubId: string }) {
  const { api } = useApp();
  const { loaded, reload } = useLoad(() => api.get<MyClubs>('/api/clubs/mine'), [props.clubId]);
  const [left, setLeft] = useState(false);
  const club = loaded.state === 'ready' ? loaded.data.items.find((item) => item.clubId === props.clubId) : undefined;
  return (
    <Screen title={club?.name ?? t('nav.clubs')}>
      <LoadState loaded={loaded} onRetry={reload} />
      {left ? (
        <p role="status" class="card">
          {t('club.left')}
        </p>
      ) : null}
      {loaded.state === 'ready' && !club && !left ? (
        <Empty>
          <p>{t('club.notMember')}</p>
        </Empty>
      ) : null}
      {club && !left ? (
        <>
          <p class="small muted">{t(`club.role.${club.role}`)}</p>
          {club.role === 'leader' ? <LeaderPanels clubId={club.clubId} /> : <p class="small muted">{t('club.membersLeaders')}</p>}
          <Leave clubId={club.clubId} onLeft={() => setLeft(true)} />
        </>
      ) : null}
    </Screen>
  );
}

function LeaderPanels(props: { clubId: string }) {
  const [round, setRound] = useState(0);
  return (
    <>
      <Invite clubId={props.clubId} onInvited={() => setRound((value) => value + 1)} />
      <Invitations clubId={props.clubId} round={round} />
      <Members clubId={props.clubId} />
    </>
  );
}

/** A new invitation: its code is in this answer only, so it is shown once, with the link that fills it in. */
function Invite(props: { clubId: string; onInvited: () => void }) {
  const { api } = useApp();
  const [hours, setHours] = useState('');
  const [created, setCreated] = useState<NewInvitation | undefined>(undefined);
  const [copied, setCopied] = useState(false);
  const action = useAction();
  const link = created ? `${location.origin}${location.pathname}${hashOf({ screen: 'join', code: created.code })}` : '';
  return (
    <form
      class="card"
      aria-labelledby="invite-title"
      onSubmit={action.submit(async () => {
        setCopied(false);
        const body = hours.trim() === '' ? {} : { expiresInHours: Number(hours) };
        setCreated(await api.send<NewInvitation>('POST', `${clubPath(props.clubId)}/invitations`, body));
        setHours('');
        props.onInvited();
      })}
    >
      <h2 id="invite-title">{t('club.inviteTitle')}</h2>
      <div class="row">
        <label class="field field-grow">
          <span>{t('club.expiry')}</span>
          <input
            type="number"
            min={1}
            max={720}
            step={1}
            inputMode="numeric"
            value={hours}
            aria-describedby="invite-hint"
            onInput={(event) => setHours(event.currentTarget.value)}
          />
        </label>
        <button type="submit" class="button" disabled={action.busy}>
          {t('club.invite')}
        </button>
      </div>
      <p id="invite-hint" class="small muted">
        {t('club.expiryHint')}
      </p>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
      {created ? (
        <div role="status" data-testid="new-invitation">
          <label class="field">
            <span>{t('club.code')}</span>
            <input readOnly value={created.code} data-testid="invitation-code" />
          </label>
          <label class="field">
            <span>{t('club.link')}</span>
            <input readOnly value={link} data-testid="invitation-link" />
          </label>
          <p class="small muted">{t('club.expires', { date: formatDateTime(created.expiresAt) })}</p>
          <button
            type="button"
            class="button button-secondary"
            onClick={() =>
              void navigator.clipboard.writeText(link).then(
                () => setCopied(true),
                () => setCopied(false),
              )
            }
          >
            {t('club.copy')}
          </button>
          {copied ? <p class="small">{t('club.copied')}</p> : null}
        </div>
      ) : null}
    </form>
  );
}

function Invitations(props: { clubId: string; round: number }) {
  const { api } = useApp();
  const paged = usePaged(
    (cursor) => api.get<InvitationPage>(withQuery(`${clubPath(props.clubId)}/invitations`, { limit: PAGE, cursor })),
    [props.clubId, props.round],
  );
  const action = useAction();
  const revoke = (invitationId: string) =>
    action.run(async () => {
      try {
        // Revoked elsewhere already counts as done: the reload shows the truth.
        await unlessGone(api.send('DELETE', `${clubPath(props.clubId)}/invitations/${encodeURIComponent(invitationId)}`));
      } finally {
        paged.reload();
      }
    });
  return (
    <section class="card" aria-labelledby="invitations-title" data-testid="open-invitations">
      <h2 id="invitations-title">{t('club.openInvitations')}</h2>
      <LoadState loaded={paged.loaded} onRetry={paged.reload} />
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
      {paged.loaded.state === 'ready' && paged.items.length === 0 ? <p class="small muted">{t('club.noInvitations')}</p> : null}
      <PagedList paged={paged} action={action} more={t('club.more')} class="list">
        {(invitation) => {
          const label = t('club.invitationOf', { date: formatDateTime(invitation.createdAt) });
          return (
            <li key={invitation.id} data-testid="invitation" data-invitation-id={invitation.id} class="row">
              <span class="field-grow">
                {label} <span class="small muted">{t('club.expires', { date: formatDateTime(invitation.expiresAt) })}</span>
              </span>
              <button
                type="button"
                class="button button-small button-secondary"
                aria-label={`${t('club.revoke')}: ${label}`}
                disabled={action.busy}
                onClick={() => void revoke(invitation.id)}
              >
                {t('club.revoke')}
              </button>
            </li>
          );
        }}
      </PagedList>
    </section>
  );
}

function Members(props: { clubId: string }) {
  const { api, userId } = useApp();
  const paged = usePaged(
    (cursor) => api.get<MemberPage>(withQuery(`${clubPath(props.clubId)}/members`, { limit: PAGE, cursor })),
    [props.clubId],
  );
  const [confirming, setConfirming] = useState<string | undefined>(undefined);
  const action = useAction();
  const remove = (memberId: string) =>
    action.run(async () => {
      await unlessGone(api.send('DELETE', `${clubPath(props.clubId)}/members/${encodeURIComponent(memberId)}`));
      setConfirming(undefined);
      paged.reload();
    });
  return (
    <section class="card" aria-labelledby="members-title" data-testid="members">
      <h2 id="members-title">{t('club.members')}</h2>
      <LoadState loaded={paged.loaded} onRetry={paged.reload} />
      <LeaveFailure error={action.error} />
      {paged.loaded.state === 'ready' && paged.items.length === 0 ? <p class="small muted">{t('club.noMembers')}</p> : null}
      <PagedList paged={paged} action={action} more={t('club.more')} class="list">
        {(member) => (
          <li key={member.userId} data-testid="member" data-user={member.userId}>
            <div class="row">
              <span class="field-grow">
                <PersonLink person={member} /> {member.userId === userId ? t('club.you') : null}{' '}
                <span class="small muted">
                  {t(`club.role.${member.role}`)} · {t('club.since', { date: formatDate(member.since) })}
                </span>
              </span>
              <button
                type="button"
                class="button button-small button-danger"
                aria-label={`${t('club.remove')}: ${personName(member)}`}
                disabled={action.busy}
                onClick={() => {
                  action.clearError();
                  setConfirming(member.userId);
                }}
              >
                {t('club.remove')}
              </button>
            </div>
            {confirming === member.userId ? (
              <div role="group" aria-label={t('club.removeConfirm', { user: personName(member) })} class="row">
                <span>{t('club.removeConfirm', { user: personName(member) })}</span>
                <button
                  type="button"
                  class="button button-small button-danger"
                  disabled={action.busy}
                  onClick={() => void remove(member.userId)}
                >
                  {t('club.confirm')}
                </button>
                <button type="button" class="button button-small button-secondary" onClick={() => setConfirming(undefined)}>
                  {t('club.cancel')}
                </button>
              </div>
            ) : null}
          </li>
        )}
      </PagedList>
    </section>
  );
}

function Leave(props: { clubId: string; onLeft: () => void }) {
  const { api } = useApp();
  const [confirming, setConfirming] = useState(false);
  const action = useAction();
  return (
    <div class="card">
      {confirming ? (
        <div role="group" aria-label={t('club.leaveConfirm')} class="row">
          <span>{t('club.leaveConfirm')}</span>
          <button
            type="button"
            class="button button-danger"
            disabled={action.busy}
            onClick={() =>
              void action.run(async () => {
                await api.send('POST', `${clubPath(props.clubId)}/leave`);
                props.onLeft();
              })
            }
          >
            {t('club.leaveYes')}
          </button>
          <button type="button" class="button button-secondary" onClick={() => setConfirming(false)}>
            {t('club.cancel')}
          </button>
        </div>
      ) : (
        <button type="button" class="button button-secondary" onClick={() => setConfirming(true)}>
          {t('club.leave')}
        </button>
      )}
      <LeaveFailure error={action.error} />
    </div>
  );
}

/** A failed removal or leave: the 409 `last_leader` in words, anything else as the backend said it. */
function LeaveFailure(props: { error: unknown }) {
  if (props.error instanceof ApiError && props.error.code === 'last_leader') {
    return (
      <p class="state state-error" role="alert" data-testid="error">
        {t('club.lastLeader')}
      </p>
    );
  }
  return props.error ? <ErrorBox error={props.error} title={t('state.actionFailed')} /> : null;
}
