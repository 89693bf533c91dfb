import { contrastRatio } from '../../web/kit/contrast';

/**
 * How a badge's registry icon and colour are drawn (pure, so unit tests import it). The registry
 * names icons (`target`, `trophy`); the app draws each as a character on the badge's colour,
 * in black or white, whichever reads better on it.
 */
const GLYPHS: Readonly<Record<string, string>> = {
  target: '◎',
  bullseye: '◉',
  crosshair: '⌖',
  'calendar-check': '✓',
  medal: '✪',
  trophy: '♛',
  star: '★',
  infinity: '∞',
  house: '⌂',
  users: '⚇',
  layers: '≡',
  footprints: '⁘',
  repeat: '↻',
  'trending-up': '↗',
  zap: 'ϟ',
};

export function badgeGlyph(icon: string): string {
  return GLYPHS[icon] ?? '★';
}

/** Black or white, whichever has the higher contrast on `background`. */
export function readableOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}
