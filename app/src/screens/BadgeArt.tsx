import { readableOn } from '../badges';
import { iconPath, QUALITY_COLOURS } from '../badgeArt';
import type { Tier } from '../types';

/**
 * A badge as a coin: its icon in line art on its colour, ringed in its quality's colour; a locked
 * badge is drawn in grey (styles.css). `label` is its text alternative; without one the picture
 * is decorative (its name is written beside it).
 */
export function BadgeArt(props: { icon: string; colour: string; quality: Tier; size?: number; label?: string; locked?: boolean }) {
  const ink = readableOn(props.colour);
  const size = props.size ?? 48;
  return (
    <svg
      class={props.locked ? 'badge-art badge-locked' : 'badge-art'}
      viewBox="0 0 48 48"
      width={size}
      height={size}
      role={props.label ? 'img' : undefined}
      aria-label={props.label}
      aria-hidden={props.label ? undefined : 'true'}
      data-testid="badge-art"
    >
      <circle cx="24" cy="24" r="23" fill={QUALITY_COLOURS[props.quality]} />
      <circle cx="24" cy="24" r="19" fill={props.colour} />
      <path
        d={iconPath(props.icon)}
        transform="translate(12 12)"
        fill="none"
        stroke={ink}
        stroke-width="2"
        stroke-linecap="round"
        stroke-linejoin="round"
      />
    </svg>
  );
}
