import { callToAction, defaultBoard, percent } from '../cards';
import { formatDate, formatNumber, t, type TextKey } from '../i18n';
import { hashOf } from '../routes';
import type { ChallengeListItem, ParticipationView, PersonalizeResult } from '../types';
import { ErrorBox, ProgressBar, Toggle, useAction, useApp } from '../ui';

/** The goal of a challenge in words: metric, target and the window its shots count in. */
function goalText(item: ChallengeListItem): string {
  const rules = item.rulesJson;
  const goal = t(`card.goal.${rules.goal.metric}` as TextKey, { target: rules.goal.target });
  return rules.window?.type === 'lastDays' ? `${goal}, ${t('card.window.lastDays', { days: rules.window.days })}` : goal;
}

/**
 * One challenge: scope badge, goal, XP reward and the call to action (join, progress, open);
 * team progress on club challenges; the privacy switches and "leave" on the member's own
 * participation; the recommended target and "regenerate" on an adaptive goal. Everything comes
 * from the list call; actions answer the new participation or challenge, which replaces the card's.
 */
export function ChallengeCard(props: { item: ChallengeListItem; onChange: (item: ChallengeListItem) => void }) {
  const { api } = useApp();
  const { item } = props;
  const action = useAction();
  const cta = callToAction(item, new Date());
  const participation = item.participation;
  const titleId = `challenge-${item.id}`;
  const setParticipation = (next: ParticipationView) => props.onChange({ ...item, participation: next });
  const path = (suffix: string) => `/api/challenges/${encodeURIComponent(item.id)}${suffix}`;
  const participationPath = (suffix: string) => `/api/challenges/participations/${encodeURIComponent(participation?.id ?? '')}${suffix}`;

  const join = () => action.run(async () => setParticipation(await api.send<ParticipationView>('POST', path('/join'))));
  const leave = () => action.run(async () => setParticipation(await api.send<ParticipationView>('POST', participationPath('/leave'))));
  const share = (field: 'shareWithinClub' | 'shareGlobally', value: boolean) =>
    action.run(async () =>
      setParticipation(await api.send<ParticipationView>('PATCH', participationPath('/visibility'), { [field]: value })),
    );
  const regenerate = () =>
    action.run(async () => {
      const result = await api.send<PersonalizeResult>('POST', '/api/challenges/personalize/me', {
        metric: item.rulesJson.goal.metric,
        difficulty: item.difficulty,
      });
      props.onChange({ ...item, ...result.challenge });
    });

  const personalization = item.rulesJson.personalization;
  return (
    <article
      class={`card challenge scope-${item.scope}`}
      aria-labelledby={titleId}
      data-testid="challenge-card"
      data-challenge-id={item.id}
    >
      <header class="card-head">
        <span class={`badge badge-${item.scope}`}>{t(`scope.${item.scope}`)}</span>
        <span class="badge badge-neutral">{t(`difficulty.${item.difficulty}`)}</span>
        <span class="xp" aria-label={`${t('card.rewardLabel')}: ${t('card.reward', { xp: item.rewardXp })}`}>
          {t('card.reward', { xp: item.rewardXp })}
        </span>
      </header>
      <h2 id={titleId} class="card-title">
        {item.title}
      </h2>
      {item.description ? <p class="muted">{item.description}</p> : null}
      <p class="goal" data-testid="goal">
        {goalText(item)}
      </p>
      <p class="small muted">
        {item.endsAt ? t('card.ends', { date: formatDate(item.endsAt) }) : t('card.duration', { days: item.durationDays })}
      </p>
      {personalization ? (
        <p class="recommendation" data-testid="recommendation">
          {t('card.recommended', {
            target: item.rulesJson.goal.target,
            percent: `${formatNumber(personalization.multiplier * 100)} %`,
            average: formatNumber(personalization.average),
            sessions: personalization.sessions,
          })}
        </p>
      ) : null}
      {item.teamProgress ? (
        <div class="team" data-testid="team-progress">
          <p class="team-title">{t('card.team')}</p>
          <p class="small">
            {t('card.teamValue', {
              aggregate: t(`aggregate.${item.teamProgress.aggregate}`),
              value: item.teamProgress.value,
              participants: item.teamProgress.participants,
              completed: item.teamProgress.completed,
            })}
          </p>
        </div>
      ) : null}
      {participation ? <ParticipationState participation={participation} /> : null}
      <div class="card-actions">
        {cta === 'join' || cta === 'rejoin' ? (
          <button type="button" class="button" disabled={action.busy} onClick={() => void join()} aria-describedby={titleId}>
            {t(cta === 'join' ? 'card.join' : 'card.rejoin')}
          </button>
        ) : null}
        {cta === 'ended' ? <span class="muted">{t('card.ended')}</span> : null}
        <a
          class="button button-secondary"
          href={hashOf({ screen: 'leaderboard', challengeId: item.id, board: defaultBoard(item) })}
          aria-describedby={titleId}
        >
          {t('card.leaderboard')}
        </a>
        {cta === 'progress' ? (
          <button
            type="button"
            class="button button-secondary"
            disabled={action.busy}
            onClick={() => void leave()}
            aria-describedby={titleId}
          >
            {t('card.leave')}
          </button>
        ) : null}
        {personalization && item.scope === 'personal' ? (
          <button
            type="button"
            class="button button-secondary"
            disabled={action.busy}
            onClick={() => void regenerate()}
            aria-describedby={titleId}
          >
            {t('card.regenerate')}
          </button>
        ) : null}
      </div>
      {participation && participation.status !== 'cancelled' ? (
        <fieldset class="privacy">
          <legend>{t('card.privacy')}</legend>
          <Toggle
            label={t('privacy.club')}
            checked={participation.shareWithinClub}
            disabled={action.busy}
            testId="share-club"
            onChange={(value) => void share('shareWithinClub', value)}
          />
          <Toggle
            label={t('privacy.global')}
            checked={participation.shareGlobally}
            disabled={action.busy}
            testId="share-global"
            onChange={(value) => void share('shareGlobally', value)}
          />
        </fieldset>
      ) : null}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </article>
  );
}

function ParticipationState(props: { participation: ParticipationView }) {
  const { participation } = props;
  if (participation.status === 'active') {
    const progress = participation.progress;
    if (!progress)
      return (
        <p class="status-line" data-testid="progress">
          {t('card.progressNone')}
        </p>
      );
    const label = t('card.progress', { value: progress.value, target: progress.target });
    return (
      <div class="status-line" data-testid="progress">
        <p>
          {label} <span class="muted small">{t('card.deadline', { date: formatDate(participation.deadlineAt) })}</span>
        </p>
        <ProgressBar percent={percent(progress.fraction)} label={label} />
      </div>
    );
  }
  const placement = participation.result?.placement;
  return (
    <p class={`status-line status-${participation.status}`} data-testid="progress">
      {placement && participation.status === 'completed' ? t(`card.placement.${placement}`) : t(`status.${participation.status}`)}
      {participation.finishedAt ? <span class="muted small"> · {formatDate(participation.finishedAt)}</span> : null}
    </p>
  );
}
