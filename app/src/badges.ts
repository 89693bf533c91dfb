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

/** Relative luminance of a `#rrggbb` colour (WCAG 2.x). */
export function luminance(hex: string): number {
  const match = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!match) return 0;
  const value = parseInt(match[1] ?? '000000', 16);
  const [r, g, b] = [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** Black or white, whichever has the higher contrast on `background`. */
export function readableOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', background) >= contrastRatio('#ffffff', background) ? '#000000' : '#ffffff';
}
