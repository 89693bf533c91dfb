import type { Streak } from '../contracts';
import { formatDate, t } from '../i18n';
import { hashOf } from '../routes';
import { LoadedSection, useApp, useLoad } from '../ui';

/** "2026-W47" → 47, as the member reads a week. */
const weekNumber = (isoWeek: string) => Number(isoWeek.split('-W')[1] ?? 0);

/**
 * The training streak (GET /api/me/streak): weeks in a row with at least one training day, the
 * longest, this week's state (trained, or the day it must happen by), the month's freeze and the
 * weeks it covered. Without a confirmed shooter record there is nothing to count: it says so.
 */
export function StreakCard() {
  const { api } = useApp();
  const { loaded, reload } = useLoad(() => api.get<Streak>('/api/me/streak'), []);
  const streak = loaded.state === 'ready' ? loaded.data : undefined;
  return (
    <LoadedSection loaded={loaded} onRetry={reload} name="streak" title={t('streak.title')}>
      {streak && !streak.hasShooterLink ? (
        <p>
          {t('streak.noLink')} <a href={hashOf({ screen: 'shooter' })}>{t('card.claim')}</a>
        </p>
      ) : null}
      {streak?.hasShooterLink ? (
        <>
          <p class="standing-xp">
            <span class="big">{streak.weeks}</span> {t(streak.weeks === 1 ? 'streak.week' : 'streak.weeks')}
          </p>
          <p class={streak.atRisk ? 'notice' : 'small'} data-testid="streak-week">
            {streak.trainedThisWeek
              ? t('streak.trained')
              : t(streak.atRisk ? 'streak.atRisk' : 'streak.open', { date: formatDate(streak.weekEndsAt) })}
          </p>
          <p class="small muted">
            {t('streak.longest', { weeks: streak.longestWeeks })} · {t(streak.freezeAvailable ? 'streak.freeze' : 'streak.freezeUsed')}
          </p>
          {streak.frozenWeeks.length > 0 ? (
            <p class="small muted">{t('streak.frozen', { weeks: streak.frozenWeeks.map(weekNumber).join(', ') })}</p>
          ) : null}
        </>
      ) : null}
    </LoadedSection>
  );
}
