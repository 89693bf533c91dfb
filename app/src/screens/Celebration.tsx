import { useEffect, useState } from 'preact/hooks';
import { toCelebrate, type Completion } from '../cards';
import { t } from '../i18n';
import type { RewardBadge } from '../types';
import { BadgeArt } from './BadgeArt';

/** Completions celebrated on this device already, so each is celebrated once. */
const SEEN_KEY = 'app.celebrated';
const KEEP = 50;

function seen(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(SEEN_KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The moment a challenge is completed: the badge it earned (else the trophy), the challenge and the XP it earned, once per
 * completion on this device (a completion of the last week the member has not seen here yet).
 * It announces itself politely and takes no focus; the burst is motion only where the member has
 * not asked for reduced motion (styles.css).
 */
export function Celebration(props: { completions: readonly (Completion & { title: string; xp: number; badge?: RewardBadge | null })[] }) {
  type Shown = (typeof props.completions)[number];
  const [shown, setShown] = useState<Shown | undefined>(undefined);
  const candidate = shown ?? toCelebrate(props.completions, seen(), new Date());
  useEffect(() => {
    if (!candidate || candidate === shown) return;
    // Seen once shown: a reload does not celebrate the same completion again.
    localStorage.setItem(SEEN_KEY, JSON.stringify([candidate.participationId, ...seen()].slice(0, KEEP)));
    setShown(candidate);
  }, [candidate?.participationId]);
  if (!candidate) return null;
  return (
    <div class="card celebration" role="status" data-testid="celebration">
      {candidate.badge ? (
        <BadgeArt
          icon={candidate.badge.icon}
          colour={candidate.badge.colour}
          quality={candidate.badge.quality}
          size={72}
          label={candidate.badge.name}
        />
      ) : (
        <BadgeArt icon="trophy" colour="#c9a227" quality="gold" size={72} />
      )}
      <div>
        <p class="celebration-title">{t('celebrate.title')}</p>
        <p>{t('celebrate.body', { title: candidate.title, xp: candidate.xp })}</p>
        <button type="button" class="button button-small" onClick={() => setShown(undefined)}>
          {t('celebrate.close')}
        </button>
      </div>
    </div>
  );
}
