import { locale } from './i18n';

/** An amount of money in the answer's currency (EUR), e.g. "251,20 €" or "€251.20". */
export function money(value: number, currency: string, signed = false): string {
  return new Intl.NumberFormat(locale(), { style: 'currency', currency, signDisplay: signed ? 'exceptZero' : 'auto' }).format(value);
}

/** A percentage given in percent (0.9 → "0.9 %"); null reads as "–". */
export function percent(value: number | null, signed = false): string {
  if (value === null) return '–';
  return new Intl.NumberFormat(locale(), {
    style: 'percent',
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
    signDisplay: signed ? 'exceptZero' : 'auto',
  }).format(value / 100);
}

/** A point in time in the browser's time zone; null reads as "–". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** A UTC calendar day (`2026-11-02`) as a short label ("2 Nov" / "2. Nov."). */
export function day(isoDay: string, withYear = false): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  return new Intl.DateTimeFormat(locale(), {
    day: 'numeric',
    month: 'short',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(date);
}
