import type { Visibility } from './model';
import type { Difficulty } from './personalizeMaths';
import type { Rules } from './rules';
import type { Tier } from './tiers';

export interface BadgeDefinition {
  key: string;
  name: string;
  icon: string;
  colour: string;
  description: string;
  quality: Tier;
}

export interface Preset {
  key: string;
  scope: 'global' | 'club' | 'personal';
  title: string;
  description: string;
  difficulty: Difficulty;
  durationDays: number;
  defaultVisibility: Visibility;
  rewardXp: number;
  rules: Rules;
  badge: BadgeDefinition;
  /** Knockout presets end with the calendar quarter in which they are seeded. */
  endsAtQuarterEnd?: boolean;
}

const badge = (key: string, name: string, icon: string, colour: string, quality: Tier, description: string): BadgeDefinition => ({
  key,
  name,
  icon,
  colour,
  description,
  quality,
});

const participation = { type: 'participation' } as const;

/**
 * The catalogue: 5 global (550-900 XP), 5 club (400-1,000 XP), 5 personal (450-650 XP), each with
 * its own badge. The club knockout pays its winner 1,000 XP and each of three finalists 400.
 */
export const PRESETS: readonly Preset[] = [
  {
    key: 'global-shots-500',
    scope: 'global',
    title: '500 shots in 30 days',
    description: 'Fire 500 counted shots within 30 days of joining.',
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 550,
    rules: { goal: { metric: 'shots', target: 500 }, window: participation, rewardBadge: 'steady-hand' },
    badge: badge('steady-hand', 'Steady Hand', 'target', '#8c6d46', 'bronze', '500 shots in 30 days'),
  },
  {
    key: 'global-sessions-12',
    scope: 'global',
    title: 'Twelve training evenings',
    description: 'Train on twelve different days within 60 days.',
    difficulty: 'medium',
    durationDays: 60,
    defaultVisibility: 'global',
    rewardXp: 650,
    rules: { goal: { metric: 'sessions', target: 12 }, window: participation, rewardBadge: 'regular' },
    badge: badge('regular', 'Regular', 'calendar-check', '#a7a9ac', 'silver', 'Twelve training evenings in 60 days'),
  },
  {
    key: 'global-average-9',
    scope: 'global',
    title: 'Average of 9.0',
    description: 'Hold an average ring value of 9.0 over at least 60 shots within 30 days.',
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 750,
    rules: { goal: { metric: 'averageRing', target: 9, minShots: 60 }, window: participation, rewardBadge: 'nine-club' },
    badge: badge('nine-club', 'Nine Club', 'bullseye', '#d4af37', 'gold', 'An average of 9.0 over 60 shots'),
  },
  {
    key: 'global-series-95',
    scope: 'global',
    title: 'A series of 95',
    description: 'Shoot a ten-shot series of 95.0 rings or more within 30 days.',
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'global',
    rewardXp: 800,
    rules: { goal: { metric: 'bestSeries', target: 95 }, window: participation, rewardBadge: 'ninety-five' },
    badge: badge('ninety-five', 'Ninety-Five', 'medal', '#d4af37', 'gold', 'A series of 95.0 rings'),
  },
  {
    key: 'global-shots-2000',
    scope: 'global',
    title: 'Marathon: 2,000 shots',
    description: 'Fire 2,000 counted shots within 90 days.',
    difficulty: 'expert',
    durationDays: 90,
    defaultVisibility: 'global',
    rewardXp: 900,
    rules: { goal: { metric: 'shots', target: 2000 }, window: participation, rewardBadge: 'marathon' },
    badge: badge('marathon', 'Marathon', 'infinity', '#5fa8d3', 'platinum', '2,000 shots in 90 days'),
  },
  {
    key: 'club-sessions-8',
    scope: 'club',
    title: 'Club night regular',
    description: 'Train on eight club evenings within 30 days.',
    difficulty: 'easy',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 400,
    rules: { goal: { metric: 'sessions', target: 8 }, window: participation, rewardBadge: 'club-regular' },
    badge: badge('club-regular', 'Club Regular', 'house', '#6b6b6b', 'iron', 'Eight club evenings in 30 days'),
  },
  {
    key: 'club-shots-1000',
    scope: 'club',
    title: 'Club thousand',
    description: 'Fire 1,000 shots at the club within 45 days; the team card adds up everyone sharing.',
    difficulty: 'medium',
    durationDays: 45,
    defaultVisibility: 'club',
    rewardXp: 600,
    rules: { goal: { metric: 'shots', target: 1000 }, window: participation, rewardBadge: 'club-thousand' },
    badge: badge('club-thousand', 'Club Thousand', 'users', '#8c6d46', 'bronze', '1,000 club shots in 45 days'),
  },
  {
    key: 'club-average-8-5',
    scope: 'club',
    title: 'Club precision 8.5',
    description: 'An average of 8.5 over at least 40 club shots within 30 days.',
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 700,
    rules: { goal: { metric: 'averageRing', target: 8.5, minShots: 40 }, window: participation, rewardBadge: 'club-precision' },
    badge: badge('club-precision', 'Club Precision', 'crosshair', '#a7a9ac', 'silver', 'An average of 8.5 at the club'),
  },
  {
    key: 'club-series-90',
    scope: 'club',
    title: 'Club series 90',
    description: 'A ten-shot series of 90.0 or more at the club within 30 days.',
    difficulty: 'hard',
    durationDays: 30,
    defaultVisibility: 'club',
    rewardXp: 800,
    rules: { goal: { metric: 'bestSeries', target: 90 }, window: participation, rewardBadge: 'club-series' },
    badge: badge('club-series', 'Club Series', 'layers', '#d4af37', 'gold', 'A series of 90.0 at the club'),
  },
  {
    key: 'club-knockout-cup',
    scope: 'club',
    title: 'Club cup (knockout)',
    description: 'Best series of the quarter: the winner takes 1,000 XP and the cup, the three finalists 400 XP each.',
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
    badge: badge('club-cup', 'Club Cup', 'trophy', '#b9f2ff', 'diamond', 'Winner of the club cup'),
    endsAtQuarterEnd: true,
  },
  {
    key: 'personal-shots-300',
    scope: 'personal',
    title: 'My 300 shots',
    description: 'Fire 300 shots within 21 days.',
    difficulty: 'easy',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 450,
    rules: { goal: { metric: 'shots', target: 300 }, window: participation, rewardBadge: 'first-steps' },
    badge: badge('first-steps', 'First Steps', 'footprints', '#6b6b6b', 'iron', '300 shots in 21 days'),
  },
  {
    key: 'personal-sessions-6',
    scope: 'personal',
    title: 'Six sessions',
    description: 'Train on six different days within 21 days.',
    difficulty: 'medium',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 500,
    rules: { goal: { metric: 'sessions', target: 6 }, window: participation, rewardBadge: 'routine' },
    badge: badge('routine', 'Routine', 'repeat', '#8c6d46', 'bronze', 'Six sessions in 21 days'),
  },
  {
    key: 'personal-average-8',
    scope: 'personal',
    title: 'My average of 8.0',
    description: 'An average of 8.0 over at least 40 shots within 30 days.',
    difficulty: 'medium',
    durationDays: 30,
    defaultVisibility: 'private',
    rewardXp: 550,
    rules: { goal: { metric: 'averageRing', target: 8, minShots: 40 }, window: participation, rewardBadge: 'eight-up' },
    badge: badge('eight-up', 'Eight Up', 'trending-up', '#a7a9ac', 'silver', 'An average of 8.0 over 40 shots'),
  },
  {
    key: 'personal-series-85',
    scope: 'personal',
    title: 'My series of 85',
    description: 'A ten-shot series of 85.0 or more within 21 days.',
    difficulty: 'medium',
    durationDays: 21,
    defaultVisibility: 'private',
    rewardXp: 600,
    rules: { goal: { metric: 'bestSeries', target: 85 }, window: participation, rewardBadge: 'series-85' },
    badge: badge('series-85', 'Series 85', 'star', '#a7a9ac', 'silver', 'A series of 85.0'),
  },
  {
    key: 'personal-weekly-150',
    scope: 'personal',
    title: '150 shots in a week',
    description: '150 shots within any seven days of a 28-day attempt.',
    difficulty: 'hard',
    durationDays: 28,
    defaultVisibility: 'private',
    rewardXp: 650,
    rules: { goal: { metric: 'shots', target: 150 }, window: { type: 'lastDays', days: 7 }, rewardBadge: 'power-week' },
    badge: badge('power-week', 'Power Week', 'zap', '#d4af37', 'gold', '150 shots within seven days'),
  },
];

/** The first instant of the next calendar quarter (UTC). */
export function quarterEnd(now: Date): Date {
  const quarterStartMonth = Math.floor(now.getUTCMonth() / 3) * 3;
  return new Date(Date.UTC(now.getUTCFullYear(), quarterStartMonth + 3, 1));
}
