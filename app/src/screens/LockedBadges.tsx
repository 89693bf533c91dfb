import { percent } from '../cards';
import { t } from '../i18n';
import type { ChallengePage } from '../types';
import { ProgressBar, useApp, useLoad } from '../ui';
import { BadgeArt } from './BadgeArt';

/**
 * Badges still to earn: each active challenge of the member that rewards a badge, drawn locked
 * in its own artwork and named, with the progress toward it. Nothing when there is none (or the list cannot be read: the earned
 * badges above are what the profile is about).
 */
export function LockedBadges() {
  const { api } = useApp();
  const { loaded } = useLoad(() => api.get<ChallengePage>('/api/challenges?status=active&limit=20'), []);
  const locked =
    loaded.state === 'ready'
      ? loaded.data.items.flatMap((item) =>
          item.rewardBadge && item.participation?.status === 'active' ? [{ ...item, rewardBadge: item.rewardBadge }] : [],
        )
      : [];
  if (locked.length === 0) return null;
  return (
    <section aria-labelledby="locked-title">
      <h3 id="locked-title">{t('badge.lockedTitle')}</h3>
      <ul class="badges" data-testid="locked-badges">
        {locked.map((item) => {
          const fraction = percent(item.participation?.progress?.fraction ?? 0);
          const label = t('badge.locked', { challenge: item.title });
          return (
            <li class="badge-item" key={item.id} data-testid="locked-badge">
              <BadgeArt icon={item.rewardBadge.icon} colour={item.rewardBadge.colour} quality={item.rewardBadge.quality} locked />
              <span class="field-grow">
                <span class="block">{item.rewardBadge.name}</span>
                <span class="block small">{label}</span>
                <ProgressBar percent={fraction} label={label} />
                <span class="small muted">{fraction} %</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
