import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { callToAction, defaultBoard, percent } from '../cards';
import { formatDate, formatNumber, t, type TextKey } from '../i18n';
import { hashOf } from '../routes';
import type { ChallengeListItem, ParticipationView, PersonalizeResult } from '../types';
import { Confirm, ErrorBox, ProgressBar, Toggle, useAction, useApp } from '../ui';

/** The goal of a challenge in words: metric, target and the window its shots count in. */
function goalText(item: ChallengeListItem): string {
  const rules = item.rulesJson;
  const goal = t(`card.goal.${rules.goal.metric}` as TextKey, { target: rules.goal.target });
  return rules.window?.type === 'lastDays' ? `${goal}, ${t('card.window.lastDays', { days: rules.window.days })}` : goal;
}

/** Progress in the goal's unit: "130 of 1,000 shots". */
export function amountText(item: ChallengeListItem, value: number, target: number): string {
  return t(`amount.${item.rulesJson.goal.metric}` as TextKey, { value, target });
}

/** The participation's privacy switches, in the order the card shows them. */
const PRIVACY_SWITCHES = [
  { field: 'shareWithinClub', label: 'privacy.club', testId: 'share-club' },
  { field: 'shareGlobally', label: 'privacy.global', testId: 'share-global' },
] as const;

/**
 * One challenge: scope badge, goal, XP reward and the call to action (join, progress, open);
 * team progress on club challenges; the privacy switches and "leave" on the member's own
 * participation; the recommended target and "regenerate" on an adaptive goal. Everything comes
 * from the list call; actions answer the new participation or challenge, which replaces the card's,
 * then the list is read again (`onActed`), so team boxes and counts never stay stale. Leaving asks
 * first and says what is lost. After an action the focus stays on the card, on the control that
 * took the place of the one pressed. `linked` says whether the member has a confirmed shooter
 * record (undefined while unknown): without one, progress cannot count, and the card says so.
 */
export function ChallengeCard(props: {
  item: ChallengeListItem;
  onChange: (item: ChallengeListItem) => void;
  onActed: () => void;
  linked: boolean | undefined;
}) {
  const { api } = useApp();
  const { item } = props;
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  /** The control that takes the focus once the card shows an action's answer (`data-action`). */
  const [focusNext, setFocusNext] = useState<string | undefined>(undefined);
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focusNext) return;
    const target =
      article.current?.querySelector<HTMLElement>(`[data-action="${focusNext}"]`) ??
      article.current?.querySelector<HTMLElement>('[data-action="leaderboard"]');
    // Disabled while the action finishes, a control takes no focus yet: the next render tries again.
    target?.focus();
    if (target && document.activeElement === target) setFocusNext(undefined);
  });
  const cta = callToAction(item, new Date());
  const participation = item.participation;
  const titleId = `challenge-${item.id}`;
  const setParticipation = (next: ParticipationView) => props.onChange({ ...item, participation: next });
  const path = (suffix: string) => `/api/challenges/${encodeURIComponent(item.id)}${suffix}`;
  const participationPath = (suffix: string) => `/api/challenges/participations/${encodeURIComponent(participation?.id ?? '')}${suffix}`;

  /** Runs a card action; afterwards `focus` (a `data-action`) takes the focus and the list is read again. */
  const act = (work: () => Promise<void>, focus: string) =>
    action.run(async () => {
      await work();
      setFocusNext(focus);
      props.onActed();
    });
  const join = () => act(async () => setParticipation(await api.send<ParticipationView>('POST', path('/join'))), 'leave');
  const leave = () =>
    act(async () => {
      setParticipation(await api.send<ParticipationView>('POST', participationPath('/leave')));
      setConfirming(false);
    }, 'rejoin');
  const share = (field: (typeof PRIVACY_SWITCHES)[number]['field'], value: boolean) => {
    // A switch is never disabled while its change is sent: a disabled control drops the focus.
    if (action.busy) return;
    void act(
      async () => setParticipation(await api.send<ParticipationView>('PATCH', participationPath('/visibility'), { [field]: value })),
      field,
    );
  };
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
      ref={article}
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
      {participation ? <ParticipationState item={item} participation={participation} linked={props.linked} /> : null}
      <div class="card-actions">
        {cta === 'join' || cta === 'rejoin' ? (
          <CardButton busy={action.busy} onClick={() => void join()} describedBy={titleId} action={cta}>
            {t(cta === 'join' ? 'card.join' : 'card.rejoin')}
          </CardButton>
        ) : null}
        {cta === 'ended' ? <span class="muted">{t('card.ended')}</span> : null}
        <a
          class="button button-secondary"
          href={hashOf({ screen: 'leaderboard', challengeId: item.id, board: defaultBoard(item) })}
          aria-describedby={titleId}
          data-action="leaderboard"
        >
          {t('card.leaderboard')}
        </a>
        {cta === 'progress' ? (
          <CardButton
            secondary
            busy={action.busy || confirming}
            onClick={() => {
              action.clearError();
              setConfirming(true);
            }}
            describedBy={titleId}
            action="leave"
          >
            {t('card.leave')}
          </CardButton>
        ) : null}
        {personalization && item.scope === 'personal' ? (
          <CardButton secondary busy={action.busy} onClick={() => void regenerate()} describedBy={titleId}>
            {t('card.regenerate')}
          </CardButton>
        ) : null}
      </div>
      {confirming && participation ? (
        <Confirm
          question={leaveQuestion(item, participation)}
          yes={t('card.leaveYes')}
          busy={action.busy}
          testId="leave-confirm"
          onYes={() => void leave()}
          onCancel={() => {
            setConfirming(false);
            setFocusNext('leave');
          }}
        />
      ) : null}
      {participation && participation.status !== 'cancelled' ? (
        <fieldset class="privacy">
          <legend>{t('card.privacy')}</legend>
          {PRIVACY_SWITCHES.map(({ field, label, testId }) => (
            <Toggle
              key={field}
              label={t(label)}
              checked={participation[field]}
              testId={testId}
              action={field}
              onChange={(value) => share(field, value)}
            />
          ))}
        </fieldset>
      ) : null}
      {action.error ? <ErrorBox error={action.error} title={t('state.actionFailed')} /> : null}
    </article>
  );
}

/**
 * One of the card's action buttons: described by the card's title (a screen reader hears which
 * challenge "Join" is for), disabled while an action runs, and named by `action` (`data-action`)
 * so the focus can come back to it after the card is drawn again.
 */
function CardButton(props: {
  secondary?: boolean;
  busy: boolean;
  onClick: () => void;
  describedBy: string;
  action?: string;
  children: ComponentChildren;
}) {
  return (
    <button
      type="button"
      class={props.secondary ? 'button button-secondary' : 'button'}
      disabled={props.busy}
      onClick={props.onClick}
      aria-describedby={props.describedBy}
      data-action={props.action}
    >
      {props.children}
    </button>
  );
}

/** What leaving costs, in words: the progress so far in the goal's unit, and that a new start is from zero. */
function leaveQuestion(item: ChallengeListItem, participation: ParticipationView): string {
  const progress = participation.progress;
  return progress && progress.value > 0
    ? t('card.leaveLoss', { amount: amountText(item, progress.value, progress.target) })
    : t('card.leaveEmpty');
}

function ParticipationState(props: { item: ChallengeListItem; participation: ParticipationView; linked: boolean | undefined }) {
  const { participation } = props;
  if (participation.status === 'active') {
    const progress = participation.progress;
    if (!progress)
      return props.linked === false ? (
        <p class="status-line notice" data-testid="progress">
          {t('card.noLink')} <a href={hashOf({ screen: 'shooter' })}>{t('card.claim')}</a>
        </p>
      ) : (
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
        <ProgressBar percent={percent(progress.fraction)} label={amountText(props.item, progress.value, progress.target)} />
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
