import type { BilingualText } from '../i18n/localizedText';
import type { Visibility } from './model';
import type { Difficulty } from './personalizeMaths';
import type { Rules } from './rules';
import type { Tier } from './tiers';

export interface BadgeDefinition {
  key: string;
  name: BilingualText;
  icon: string;
  colour: string;
  description: BilingualText;
  quality: Tier;
}

export interface Preset {
  key: string;
  scope: 'global' | 'club' | 'personal';
  title: BilingualText;
  description: BilingualText;
  difficulty: Difficulty;
  durationDays: number;
  defaultVisibility: Visibility;
  rewardXp: number;
  rules: Rules;
  badge: BadgeDefinition;
  /** Knockout presets end with the calendar quarter in which they are seeded. */
  endsAtQuarterEnd?: boolean;
}

/** A badge with its artwork, names and descriptions in German and English (the presets' own, and any other a leader's challenge rewards). */
export const badge = (
  key: string,
  name: BilingualText,
  icon: string,
  colour: string,
  quality: Tier,
  description: BilingualText,
): BadgeDefinition => ({
  key,
  name,
  icon,
  colour,
  description,
  quality,
});

const participation = { type: 'participation' } as const;

/**
 * The catalogue, each text in German and English: 5 global (550-900 XP), 5 club (400-1,000 XP), 5 personal (450-650 XP), each with
 * its own badge. The club knockout pays its winner 1,000 XP and each of three finalists 400.
 */
export const PRESETS: readonly Preset[] = [
  {
    key: 'global-shots-500',
    scope: 'global',
    title: { de: '500 Schüsse in 30 Tagen', en: '500 shots in 30 days' },
    description: {
      de: 'Gib innerhalb von 30 Tagen nach dem Beitritt 500 gewertete Schüsse ab.',
      en: 'Fire 500 counted shots within 30 days of joining.',
    },
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 550,
    rules: { goal: { metric: 'shots', target: 500 }, window: participation, rewardBadge: 'steady-hand' },
    badge: badge('steady-hand', { de: 'Ruhige Hand', en: 'Steady Hand' }, 'target', '#8c6d46', 'bronze', {
      de: '500 Schüsse in 30 Tagen',
      en: '500 shots in 30 days',
    }),
  },
  {
    key: 'global-sessions-12',
    scope: 'global',
    title: { de: 'Zwölf Trainingsabende', en: 'Twelve training evenings' },
    description: {
      de: 'Trainiere innerhalb von 60 Tagen an zwölf verschiedenen Tagen.',
      en: 'Train on twelve different days within 60 days.',
    },
    difficulty: 'medium',
    durationDays: 60,
    defaultVisibility: 'global',
    rewardXp: 650,
    rules: { goal: { metric: 'sessions', target: 12 }, window: participation, rewardBadge: 'regular' },
    badge: badge('regular', { de: 'Stammgast', en: 'Regular' }, 'calendar-check', '#a7a9ac', 'silver', {
      de: 'Zwölf Trainingsabende in 60 Tagen',
      en: 'Twelve training evenings in 60 days',
    }),
  },
  {
    key: 'global-average-9',
    scope: 'global',
    title: { de: 'Schnitt von 9,0', en: 'Average of 9.0' },
    description: {
      de: 'Halte innerhalb von 30 Tagen einen Ringdurchschnitt von 9,0 über mindestens 60 Schüsse.',
      en: 'Hold an average ring value of 9.0 over at least 60 shots within 30 days.',
    },
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 750,
    rules: { goal: { metric: 'averageRing', target: 9, minShots: 60 }, window: participation, rewardBadge: 'nine-club' },
    badge: badge('nine-club', { de: 'Neuner-Club', en: 'Nine Club' }, 'bullseye', '#d4af37', 'gold', {
      de: 'Ein Schnitt von 9,0 über 60 Schüsse',
      en: 'An average of 9.0 over 60 shots',
    }),
  },
  {
    key: 'global-series-95',
    scope: 'global',
    title: { de: 'Eine 95er-Serie', en: 'A series of 95' },
    description: {
      de: 'Schieße innerhalb von 30 Tagen eine Zehn-Schuss-Serie mit 95,0 Ringen oder mehr.',
      en: 'Shoot a ten-shot series of 95.0 rings or more within 30 days.',
    },
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 800,
    rules: { goal: { metric: 'bestSeries', target: 95 }, window: participation, rewardBadge: 'ninety-five' },
    badge: badge('ninety-five', { de: 'Fünfundneunzig', en: 'Ninety-Five' }, 'medal', '#d4af37', 'gold', {
      de: 'Eine Serie mit 95,0 Ringen',
      en: 'A series of 95.0 rings',
    }),
  },
  {
    key: 'global-shots-2000',
    scope: 'global',
    title: { de: 'Marathon: 2.000 Schüsse', en: 'Marathon: 2,000 shots' },
    description: { de: 'Gib innerhalb von 90 Tagen 2.000 gewertete Schüsse ab.', en: 'Fire 2,000 counted shots within 90 days.' },
    difficulty: 'expert',
    durationDays: 90,
    defaultVisibility: 'global',
    rewardXp: 900,
    rules: { goal: { metric: 'shots', target: 2000 }, window: participation, rewardBadge: 'marathon' },
    badge: badge('marathon', { de: 'Marathonschütze', en: 'Marathon' }, 'infinity', '#5fa8d3', 'platinum', {
      de: '2.000 Schüsse in 90 Tagen',
      en: '2,000 shots in 90 days',
    }),
  },
  {
    key: 'club-sessions-8',
    scope: 'club',
    title: { de: 'Stammgast am Vereinsabend', en: 'Club night regular' },
    description: { de: 'Trainiere innerhalb von 30 Tagen an acht Vereinsabenden.', en: 'Train on eight club evenings within 30 days.' },
    difficulty: 'easy',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 400,
    rules: { goal: { metric: 'sessions', target: 8 }, window: participation, rewardBadge: 'club-regular' },
    badge: badge('club-regular', { de: 'Vereinsstammgast', en: 'Club Regular' }, 'house', '#6b6b6b', 'iron', {
      de: 'Acht Vereinsabende in 30 Tagen',
      en: 'Eight club evenings in 30 days',
    }),
  },
  {
    key: 'club-shots-1000',
    scope: 'club',
    title: { de: 'Vereins-Tausender', en: 'Club thousand' },
    description: {
      de: 'Gib innerhalb von 45 Tagen 1.000 Schüsse im Verein ab; die Teamkarte zählt alle zusammen, die teilen.',
      en: 'Fire 1,000 shots at the club within 45 days; the team card adds up everyone sharing.',
    },
    difficulty: 'medium',
    durationDays: 45,
    defaultVisibility: 'club',
    rewardXp: 600,
    rules: { goal: { metric: 'shots', target: 1000 }, window: participation, rewardBadge: 'club-thousand' },
    badge: badge('club-thousand', { de: 'Tausender des Vereins', en: 'Club Thousand' }, 'users', '#8c6d46', 'bronze', {
      de: '1.000 Vereinsschüsse in 45 Tagen',
      en: '1,000 club shots in 45 days',
    }),
  },
  {
    key: 'club-average-8-5',
    scope: 'club',
    title: { de: 'Vereinspräzision 8,5', en: 'Club precision 8.5' },
    description: {
      de: 'Ein Schnitt von 8,5 über mindestens 40 Vereinsschüsse innerhalb von 30 Tagen.',
      en: 'An average of 8.5 over at least 40 club shots within 30 days.',
    },
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 700,
    rules: { goal: { metric: 'averageRing', target: 8.5, minShots: 40 }, window: participation, rewardBadge: 'club-precision' },
    badge: badge('club-precision', { de: 'Präzision im Verein', en: 'Club Precision' }, 'crosshair', '#a7a9ac', 'silver', {
      de: 'Ein Schnitt von 8,5 im Verein',
      en: 'An average of 8.5 at the club',
    }),
  },
  {
    key: 'club-series-90',
    scope: 'club',
    title: { de: 'Vereinsserie 90', en: 'Club series 90' },
    description: {
      de: 'Eine Zehn-Schuss-Serie mit 90,0 oder mehr im Verein innerhalb von 30 Tagen.',
      en: 'A ten-shot series of 90.0 or more at the club within 30 days.',
    },
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 800,
    rules: { goal: { metric: 'bestSeries', target: 90 }, window: participation, rewardBadge: 'club-series' },
    badge: badge('club-series', { de: 'Vereinsserie', en: 'Club Series' }, 'layers', '#d4af37', 'gold', {
      de: 'Eine Serie von 90,0 im Verein',
      en: 'A series of 90.0 at the club',
    }),
  },
  {
    key: 'club-knockout-cup',
    scope: 'club',
    title: { de: 'Vereinspokal (K.-o.)', en: 'Club cup (knockout)' },
    description: {
      de: 'Beste Serie des Quartals: Der Sieger bekommt 1.000 XP und den Pokal, die drei Finalisten je 400 XP.',
      en: 'Best series of the quarter: the winner takes 1,000 XP and the cup, the three finalists 400 XP each.',
    },
    difficulty: 'expert',
    durationDays: 92,
    defaultVisibility: 'club',
    rewardXp: 1000,
    rules: {
      goal: { metric: 'bestSeries', target: 109 },
      window: participation,
      rewardBadge: 'club-cup',
      knockout: { finalists: 3, finalistXp: 400 },
    },
    badge: badge('club-cup', { de: 'Vereinspokal', en: 'Club Cup' }, 'trophy', '#b9f2ff', 'diamond', {
      de: 'Gewinner des Vereinspokals',
      en: 'Winner of the club cup',
    }),
    endsAtQuarterEnd: true,
  },
  {
    key: 'personal-shots-300',
    scope: 'personal',
    title: { de: 'Meine 300 Schüsse', en: 'My 300 shots' },
    description: { de: 'Gib innerhalb von 21 Tagen 300 Schüsse ab.', en: 'Fire 300 shots within 21 days.' },
    difficulty: 'easy',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 450,
    rules: { goal: { metric: 'shots', target: 300 }, window: participation, rewardBadge: 'first-steps' },
    badge: badge('first-steps', { de: 'Erste Schritte', en: 'First Steps' }, 'footprints', '#6b6b6b', 'iron', {
      de: '300 Schüsse in 21 Tagen',
      en: '300 shots in 21 days',
    }),
  },
  {
    key: 'personal-sessions-6',
    scope: 'personal',
    title: { de: 'Sechs Trainingstage', en: 'Six sessions' },
    description: {
      de: 'Trainiere innerhalb von 21 Tagen an sechs verschiedenen Tagen.',
      en: 'Train on six different days within 21 days.',
    },
    difficulty: 'medium',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 500,
    rules: { goal: { metric: 'sessions', target: 6 }, window: participation, rewardBadge: 'routine' },
    badge: badge('routine', { de: 'Routiniert', en: 'Routine' }, 'repeat', '#8c6d46', 'bronze', {
      de: 'Sechs Trainingstage in 21 Tagen',
      en: 'Six sessions in 21 days',
    }),
  },
  {
    key: 'personal-average-8',
    scope: 'personal',
    title: { de: 'Mein Schnitt von 8,0', en: 'My average of 8.0' },
    description: {
      de: 'Ein Schnitt von 8,0 über mindestens 40 Schüsse innerhalb von 30 Tagen.',
      en: 'An average of 8.0 over at least 40 shots within 30 days.',
    },
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'private',
    rewardXp: 550,
    rules: { goal: { metric: 'averageRing', target: 8, minShots: 40 }, window: participation, rewardBadge: 'eight-up' },
    badge: badge('eight-up', { de: 'Acht und mehr', en: 'Eight Up' }, 'trending-up', '#a7a9ac', 'silver', {
      de: 'Ein Schnitt von 8,0 über 40 Schüsse',
      en: 'An average of 8.0 over 40 shots',
    }),
  },
  {
    key: 'personal-series-85',
    scope: 'personal',
    title: { de: 'Meine 85er-Serie', en: 'My series of 85' },
    description: {
      de: 'Eine Zehn-Schuss-Serie mit 85,0 oder mehr innerhalb von 21 Tagen.',
      en: 'A ten-shot series of 85.0 or more within 21 days.',
    },
    difficulty: 'medium',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 600,
    rules: { goal: { metric: 'bestSeries', target: 85 }, window: participation, rewardBadge: 'series-85' },
    badge: badge('series-85', { de: 'Serie 85', en: 'Series 85' }, 'star', '#a7a9ac', 'silver', {
      de: 'Eine Serie von 85,0',
      en: 'A series of 85.0',
    }),
  },
  {
    key: 'personal-weekly-150',
    scope: 'personal',
    title: { de: '150 Schüsse in einer Woche', en: '150 shots in a week' },
    description: {
      de: '150 Schüsse innerhalb beliebiger sieben Tage eines 28-tägigen Versuchs.',
      en: '150 shots within any seven days of a 28-day attempt.',
    },
    difficulty: 'hard',
    durationDays: 28,
    defaultVisibility: 'private',
    rewardXp: 650,
    rules: { goal: { metric: 'shots', target: 150 }, window: { type: 'lastDays', days: 7 }, rewardBadge: 'power-week' },
    badge: badge('power-week', { de: 'Powerwoche', en: 'Power Week' }, 'zap', '#d4af37', 'gold', {
      de: '150 Schüsse in sieben Tagen',
      en: '150 shots within seven days',
    }),
  },
];

/** The first instant of the next calendar quarter (UTC). */
export function quarterEnd(now: Date): Date {
  const quarterStartMonth = Math.floor(now.getUTCMonth() / 3) * 3;
  return new Date(Date.UTC(now.getUTCFullYear(), quarterStartMonth + 3, 1));
}
