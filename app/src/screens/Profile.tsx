import { formatDate, formatNumber, t } from '../i18n';
import { hashOf } from '../routes';
import type { Achievements } from '../types';
import { useState } from 'preact/hooks';
import { Empty, ErrorBox, LoadState, ProgressBar, Screen, Toggle, useAction, useApp, useLoad } from '../ui';
import { Ladder } from './Ladder';
import type { BadgePreferences } from '../types';
import { percent } from '../cards';
import { BadgeGroups } from './BadgeGroups';
import { Celebration } from './Celebration';
import { LockedBadges } from './LockedBadges';
import { ProfileName } from './ProfileName';
import { StreakCard } from './StreakCard';

/**
 * The member's name and streak; achievements and badges: XP, tier and the way to the next tier; earned badges grouped by
 * quality (highest first), oldest first within a group, then the ones still locked; the recent completions with their
 * leaderboards; a way back to the challenges.
 */
export function Profile() {
  const { api } = useApp();
  const { loaded, reload } = useLoad(() => api.get<Achievements>('/api/challenges/achievements'), []);
  return (
    <Screen title={t('profile.title')}>
      <ProfileName />
      <StreakCard />
      <LoadState loaded={loaded} onRetry={reload} />
      {loaded.state === 'ready' ? <ProfileBody achievements={loaded.data} /> : null}
    </Screen>
  );
}

function ProfileBody(props: { achievements: Achievements }) {
  const a = props.achievements;
  const progressLabel = t('profile.progress');
  return (
    <>
      <Celebration completions={a.recentCompletions} />
      <div class="card standing" data-testid="standing">
        <p class="standing-xp">
          <span class="big">{formatNumber(a.xp)}</span> {t('profile.xp')}
        </p>
        <p>
          {t('profile.tier')}: <strong class={`tier tier-${a.tier}`}>{t(`tier.${a.tier}`)}</strong>
        </p>
        <ProgressBar percent={percent(a.progressToNextTier)} label={progressLabel} />
        <p class="small">
          {a.nextTier && a.xpToNextTier !== null
            ? t('profile.next', { xp: a.xpToNextTier, tier: t(`tier.${a.nextTier}`) })
            : t('profile.top')}
        </p>
        {a.season ? <p class="small muted">{t('profile.season', { name: a.season.name, xp: a.season.xp })}</p> : null}
      </div>

      <h2>{t('profile.badges')}</h2>
      {a.badgeGroups.length === 0 ? (
        <Empty>
          <p>{t('profile.noBadges')}</p>
          <a class="button" href={hashOf({ screen: 'challenges', tab: 'global' })}>
            {t('profile.toChallenges')}
          </a>
        </Empty>
      ) : (
        <BadgeGroups groups={a.badgeGroups} />
      )}
      <LockedBadges />

      <PrivateBadges initial={a.showPrivateBadges} />

      <h2>{t('profile.completions')}</h2>
      {a.recentCompletions.length === 0 ? (
        <Empty>
          <p>{t('profile.noCompletions')}</p>
        </Empty>
      ) : (
        <ul class="completions" data-testid="completions">
          {a.recentCompletions.map((completion) => (
            <li key={completion.participationId}>
              <p>
                <strong>{completion.title}</strong> · {formatDate(completion.finishedAt)} · {t('card.reward', { xp: completion.xp })}
              </p>
              <p class="links">
                <a href={hashOf({ screen: 'leaderboard', challengeId: completion.challengeId, board: 'global' })}>
                  {t('card.leaderboard')}: {t('board.global')}
                </a>
                {completion.leaderboards.club ? (
                  <a href={hashOf({ screen: 'leaderboard', challengeId: completion.challengeId, board: 'club' })}>
                    {t('card.leaderboard')}: {t('board.club')}
                  </a>
                ) : null}
              </p>
            </li>
          ))}
        </ul>
      )}
      <Ladder />
      <p>
        <a href={hashOf({ screen: 'challenges', tab: 'global' })}>{t('profile.toChallenges')}</a>
      </p>
    </>
  );
}

/** Whether fellow club members see the badges from the member's private challenges (stored server-side). */
function PrivateBadges(props: { initial: boolean }) {
  const { api } = useApp();
  const [show, setShow] = useState(props.initial);
  const action = useAction();
  const change = (showPrivateBadges: boolean) =>
    action.run(async () => {
      const answer = await api.send<BadgePreferences>('PUT', '/api/challenges/badge-preferences', { showPrivateBadges });
      setShow(answer.showPrivateBadges);
    });
  return (
    <div class="card">
      <Toggle
        label={t('profile.showPrivate')}
        checked={show}
        disabled={action.busy}
        testId="show-private-badges"
        onChange={(value) => void change(value)}
      />
      <p class="small muted">{t('profile.showPrivateHint')}</p>
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </div>
  );
}
