import { formatDate, t } from '../i18n';
import type { EarnedBadge, Tier } from '../types';
import { BadgeArt } from './BadgeArt';

/**
 * Earned badges grouped by quality (as the API orders the groups: highest first), oldest first
 * within a group; the member's own profile and another member's page show them alike.
 */
export function BadgeGroups(props: { groups: readonly { quality: Tier; badges: readonly EarnedBadge[] }[] }) {
  return (
    <>
      {props.groups.map((group) => (
        <section class="badge-group" aria-labelledby={`quality-${group.quality}`} key={group.quality} data-testid="badge-group">
          <h3 id={`quality-${group.quality}`}>{t(`tier.${group.quality}`)}</h3>
          <ul class="badges">
            {[...group.badges]
              .sort((x, y) => Date.parse(x.earnedAt) - Date.parse(y.earnedAt))
              .map((badge) => (
                <Badge badge={badge} key={`${badge.key}-${badge.earnedAt}`} />
              ))}
          </ul>
        </section>
      ))}
    </>
  );
}

function Badge(props: { badge: EarnedBadge }) {
  const { badge } = props;
  return (
    <li class="badge-item" data-testid="badge" data-key={badge.key}>
      <BadgeArt
        icon={badge.icon}
        colour={badge.colour}
        quality={badge.quality}
        label={t('badge.alt', { name: badge.name, tier: t(`tier.${badge.quality}`) })}
      />
      <span>
        <strong>{badge.name}</strong>
        <span class="small"> {badge.description}</span>
        <span class="small muted block">
          {t('profile.earned', { date: formatDate(badge.earnedAt), challenge: badge.challengeTitle })}
          {badge.fromPrivateChallenge ? ` · ${t('profile.private')}` : ''}
        </span>
      </span>
    </li>
  );
}
