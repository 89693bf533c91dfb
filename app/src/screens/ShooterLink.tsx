import { useState } from 'preact/hooks';
import { formatDate, t } from '../i18n';
import type { ClubShooterLinkList, MyClubs, ShooterLink, ShooterLinkList } from '../types';
import { Empty, ErrorBox, LoadState, PersonLink, Screen, personName, useAction, useApp, useLoad } from '../ui';

interface Loaded {
  clubs: MyClubs['items'];
  links: ShooterLink[];
}

/**
 * The link between the member and their shooter record in the club's software: claim it, see
 * its state; leaders confirm or reject the claims of their club (never their own).
 */
export function ShooterLinkScreen() {
  const { api } = useApp();
  // Bumped after a claim, so a leader's list of claims to decide shows their own new claim too.
  const [claims, setClaims] = useState(0);
  const { loaded, reload } = useLoad(async (): Promise<Loaded> => {
    const [clubs, links] = await Promise.all([
      api.get<MyClubs>('/api/clubs/mine'),
      api.get<ShooterLinkList>('/api/challenges/shooter-links'),
    ]);
    return { clubs: clubs.items, links: links.items };
  }, []);
  return (
    <Screen title={t('shooter.title')}>
      <p>{t('shooter.intro')}</p>
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? (
        <>
          <ClaimForm
            clubs={loaded.data.clubs}
            onClaimed={() => {
              reload();
              setClaims((count) => count + 1);
            }}
          />
          <h2>{t('shooter.mine')}</h2>
          <OwnClaims links={loaded.data.links} clubs={loaded.data.clubs} />
          {loaded.data.clubs
            .filter((club) => club.role === 'leader')
            .map((club) => (
              <LeaderClaims club={club} claims={claims} key={club.clubId} />
            ))}
        </>
      ) : null}
    </Screen>
  );
}

function clubName(clubs: MyClubs['items'], clubId: string): string {
  return clubs.find((club) => club.clubId === clubId)?.name ?? clubId;
}

function ClaimForm(props: { clubs: MyClubs['items']; onClaimed: () => void }) {
  const { api } = useApp();
  const [clubId, setClubId] = useState(props.clubs[0]?.clubId ?? '');
  const [shooterId, setShooterId] = useState('');
  const [claimed, setClaimed] = useState(false);
  const action = useAction();
  if (props.clubs.length === 0) {
    return (
      <Empty>
        <p>{t('challenges.emptyClub')}</p>
      </Empty>
    );
  }
  return (
    <form
      class="card"
      data-testid="claim-form"
      onSubmit={action.submit(async () => {
        setClaimed(false);
        await api.send('POST', '/api/challenges/shooter-links', { clubId, shooterId });
        setClaimed(true);
        setShooterId('');
        props.onClaimed();
      })}
    >
      <div class="row">
        <label class="field">
          <span>{t('shooter.club')}</span>
          <select value={clubId} onChange={(event) => setClubId(event.currentTarget.value)}>
            {props.clubs.map((club) => (
              <option value={club.clubId} key={club.clubId}>
                {club.name}
              </option>
            ))}
          </select>
        </label>
        <label class="field">
          <span>{t('shooter.id')}</span>
          <input value={shooterId} required maxLength={64} onInput={(event) => setShooterId(event.currentTarget.value)} />
        </label>
        <button type="submit" class="button" disabled={action.busy}>
          {t('shooter.claim')}
        </button>
      </div>
      <p role="status" class="small">
        {claimed ? t('shooter.claimed') : ''}
      </p>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </form>
  );
}

function OwnClaims(props: { links: ShooterLink[]; clubs: MyClubs['items'] }) {
  if (props.links.length === 0) {
    return (
      <Empty>
        <p>{t('shooter.none')}</p>
      </Empty>
    );
  }
  return (
    <ul class="links-list" data-testid="own-claims">
      {props.links.map((link) => (
        <li class="card" key={link.id} data-status={link.status}>
          <p>
            <strong>{clubName(props.clubs, link.clubId)}</strong> ·{' '}
            {link.shooterName ? `${link.shooterName} (${link.shooterId})` : link.shooterId}
          </p>
          <p>
            <span class={`badge badge-status-${link.status}`}>{t(`shooter.status.${link.status}`)}</span>{' '}
            <span class="small muted">{t('shooter.requested', { date: formatDate(link.requestedAt) })}</span>
          </p>
        </li>
      ))}
    </ul>
  );
}

function LeaderClaims(props: { club: MyClubs['items'][number]; claims: number }) {
  const { api, userId } = useApp();
  const base = `/api/challenges/clubs/${encodeURIComponent(props.club.clubId)}/shooter-links`;
  const { loaded, reload } = useLoad(() => api.get<ClubShooterLinkList>(base), [base, props.claims]);
  const action = useAction();
  const decide = (link: ShooterLink, decision: 'confirm' | 'reject') =>
    action.run(async () => {
      await api.send('POST', `${base}/${encodeURIComponent(link.id)}/${decision}`);
      reload();
    });
  const headingId = `leader-${props.club.clubId}`;
  return (
    <section aria-labelledby={headingId} data-testid="leader-claims">
      <h2 id={headingId}>{t('shooter.leader', { club: props.club.name })}</h2>
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' && loaded.data.items.length === 0 ? (
        <Empty>
          <p>{t('shooter.noPending')}</p>
        </Empty>
      ) : null}
      {loaded.state === 'ready' && loaded.data.items.length > 0 ? (
        <ul class="links-list">
          {loaded.data.items.map((link) => {
            // The claimant by name and avatar (never their account id), then the record they claim.
            const shooter = link.shooterName ? `${link.shooterName} (${link.shooterId})` : link.shooterId;
            const who = t('shooter.member', { user: personName(link), shooter });
            return (
              <li class="card" key={link.id} data-testid="pending-claim" data-user={link.userId}>
                <p>
                  <PersonLink person={link} /> {t('shooter.claims', { shooter })}
                </p>
                <p class="small muted">{t('shooter.requested', { date: formatDate(link.requestedAt) })}</p>
                {link.userId === userId ? (
                  <p class="small">{t('shooter.own')}</p>
                ) : (
                  <div class="card-actions">
                    <button
                      type="button"
                      class="button"
                      aria-label={`${t('shooter.confirm')}: ${who}`}
                      disabled={action.busy}
                      onClick={() => void decide(link, 'confirm')}
                    >
                      {t('shooter.confirm')}
                    </button>
                    <button
                      type="button"
                      class="button button-secondary"
                      aria-label={`${t('shooter.reject')}: ${who}`}
                      disabled={action.busy}
                      onClick={() => void decide(link, 'reject')}
                    >
                      {t('shooter.reject')}
                    </button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      ) : null}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </section>
  );
}
