import type { MessageKey, Params } from './catalogue';
import { numberFormat } from './formats';

type Translate = (key: MessageKey, params?: Params) => string;

/**
 * A size as people read it, in the reader's locale: below a KiB the exact count in words
 * ("46 bytes", not a rounded "1 KiB"), above it binary units with one decimal (1.5 KiB, 3.2 MiB).
 */
export function formatBytes(n: number, locale: string, t: Translate): string {
  if (n < 1024) return t('app.bytes', { count: n });
  const units = ['KiB', 'MiB', 'GiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(v)} ${units[u]}`;
}
