import type { Tier } from './types';

/**
 * The badge artwork's drawing (pure, so unit tests import it): each registry icon (`target`,
 * `trophy`, …) as line-art paths on a 24-unit grid, drawn on the badge's colour inside a ring in
 * its quality's colour. An icon the app does not know yet is drawn as a star.
 */
const circle = (x: number, y: number, r: number) => `M${x - r} ${y}a${r} ${r} 0 1 0 ${2 * r} 0a${r} ${r} 0 1 0 ${-2 * r} 0`;

const STAR = 'M12 3l2.6 6 6.4.3-5 4.2 1.6 6.5-5.6-3.6-5.6 3.6 1.6-6.5-5-4.2 6.4-.3z';

export const ICON_PATHS: Readonly<Record<string, string>> = {
  target: circle(12, 12, 8) + circle(12, 12, 4.5) + circle(12, 12, 1),
  bullseye: circle(12, 12, 8) + circle(12, 12, 3),
  crosshair: `${circle(12, 12, 6)}M12 3v5M12 16v5M3 12h5M16 12h5`,
  'calendar-check': 'M5 6h14v13H5zM5 10h14M9 4v4M15 4v4M9 15l2 2 4-4',
  medal: `${circle(12, 15, 5)}M8 3l4 6 4-6`,
  trophy: 'M8 4h8v5a4 4 0 0 1-8 0zM12 13v4M8 20h8M8 6H5a3 3 0 0 0 3 4M16 6h3a3 3 0 0 1-3 4',
  star: STAR,
  infinity: 'M12 12c-2-3-8-3-8 0s6 3 8 0 8-3 8 0-6 3-8 0',
  house: 'M4 11l8-7 8 7M6 10v9h12v-9M10 19v-5h4v5',
  users: `${circle(9, 9, 3)}M3 19a6 6 0 0 1 12 0${circle(17, 9, 2.5)}M16 14a5 5 0 0 1 5 5`,
  layers: 'M12 4l8 4-8 4-8-4zM4 12l8 4 8-4M4 16l8 4 8-4',
  footprints: `${circle(8, 8, 2.5)}${circle(16, 14, 2.5)}M8 13v6M16 5v4`,
  repeat: 'M5 11a7 7 0 0 1 12-4l2 2M19 5v4h-4M19 13a7 7 0 0 1-12 4l-2-2M5 19v-4h4',
  'trending-up': 'M3 17l6-6 4 4 8-8M15 7h6v6',
  zap: 'M13 3L5 14h6l-1 7 8-11h-6z',
};

export function iconPath(icon: string): string {
  return ICON_PATHS[icon] ?? STAR;
}

/** The ring's colour: the badge's quality, as the tiers are coloured elsewhere in the app. */
export const QUALITY_COLOURS: Readonly<Record<Tier, string>> = {
  iron: '#5f6670',
  bronze: '#9a5a24',
  silver: '#8e98a3',
  gold: '#c9a227',
  platinum: '#3f8f87',
  diamond: '#3b6fc4',
};
