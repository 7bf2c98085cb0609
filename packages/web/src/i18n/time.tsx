import { dateTimeFormat } from './formats';
import { useI18n } from './I18n';

const localZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** A date and time as the activity's time zone shows it, e.g. "24 Nov 2026, 14:05 (Europe/Warsaw)". */
export function formatInZone(iso: string | number | Date, timeZone: string, locale: string, withZone = true): string {
  const d = new Date(iso);
  const text = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(d);
  return withZone && timeZone !== localZone ? `${text} (${timeZone})` : text;
}

/**
 * A time shown in the activity's zone, with the reader's own zone on hover (and for screen readers
 * in the machine-readable datetime attribute). A table whose page names the zone once leaves it
 * out of every row (withZone false).
 */
export function Time({ iso, timeZone, withZone = true }: { iso: string; timeZone: string; withZone?: boolean }) {
  const { locale } = useI18n();
  // timeStyle long names the zone; dateStyle and timeZoneName together are a RangeError
  const own = dateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'long' }).format(new Date(iso));
  return (
    <time dateTime={iso} title={own}>
      {formatInZone(iso, timeZone, locale, withZone)}
    </time>
  );
}

/** A duration as h:mm:ss (or d h:mm:ss past a day), the way contest clocks show it. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const hms = `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return d > 0 ? `${d}d ${hms}` : hms;
}
