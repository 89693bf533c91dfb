import { formatNumber, t } from '../i18n';
import { hashOf } from '../routes';
import type { MemberBadges } from '../types';
import type { Named } from '../contracts';
import { Avatar, Empty, LoadState, personName, useApp, useLoad } from '../ui';
import { BadgeGroups } from './BadgeGroups';

/**
 * Another member's page, opened from a leaderboard, a ladder or the club's member list: their XP
 * and tier and their badges, as far as they share them with the viewer (the server decides:
 * GET /api/challenges/members/{userId}/badges). Someone who shares nothing looks like someone
 * with nothing, so the page cannot tell the two apart either.
 */
export function Member(props: { userId: string }) {
  const { api, userId: me } = useApp();
  const { loaded, reload } = useLoad(
    () => api.get<MemberBadges>(`/api/challenges/members/${encodeURIComponent(props.userId)}/badges`),
    [props.userId],
  );
  // The name comes with the answer (null while the member has no profile): until then, the neutral word.
  const person: Named = loaded.state === 'ready' ? { ...(loaded.data as Named), userId: props.userId } : { userId: props.userId };
  return (
    <section aria-labelledby="page-title" data-testid="member-page">
      <p>
        <a href="#" onClick={(event) => (history.length > 1 ? (event.preventDefault(), history.back()) : undefined)}>
          ← {t('member.back')}
        </a>
      </p>
      <h1 id="page-title" tabIndex={-1} class="person">
        <Avatar person={person} large />
        {personName(person)}
      </h1>
      {props.userId === me ? (
        <p class="small muted">
          {t('member.self')} <a href={hashOf({ screen: 'profile' })}>{t('nav.profile')}</a>
        </p>
      ) : null}
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? (
        <>
          <div class="card standing" data-testid="member-standing">
            {loaded.data.standing ? (
              <>
                <p class="standing-xp">
                  <span class="big">{formatNumber(loaded.data.standing.xp)}</span> {t('profile.xp')}
                </p>
                <p>
                  {t('profile.tier')}:{' '}
                  <strong class={`tier tier-${loaded.data.standing.tier}`}>{t(`tier.${loaded.data.standing.tier}`)}</strong>
                </p>
              </>
            ) : (
              <p>{t('member.noStanding')}</p>
            )}
          </div>
          <h2>{t('profile.badges')}</h2>
          {loaded.data.badgeGroups.length === 0 ? (
            <Empty>
              <p>{t('member.noBadges')}</p>
            </Empty>
          ) : (
            <BadgeGroups groups={loaded.data.badgeGroups} />
          )}
        </>
      ) : null}
    </section>
  );
}
