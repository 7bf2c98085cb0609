/**
 * Intl formatters, made once per locale and options and kept. Making one costs far more than using
 * it (the locale's data is looked up and copied each time): a table of 25 submissions with a time
 * in each row made some 75 of them per render, most of the stream page's first render.
 */

const dateTimes = new Map<string, Intl.DateTimeFormat>();
const numbers = new Map<string, Intl.NumberFormat>();
const plurals = new Map<string, Intl.PluralRules>();

function kept<F>(cache: Map<string, F>, locale: string, options: object | undefined, make: () => F): F {
  const key = options ? `${locale}\u0000${JSON.stringify(options)}` : locale;
  let f = cache.get(key);
  if (!f) {
    f = make();
    cache.set(key, f);
  }
  return f;
}

export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return kept(dateTimes, locale, options, () => new Intl.DateTimeFormat(locale, options));
}

export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return kept(numbers, locale, options, () => new Intl.NumberFormat(locale, options));
}

export function pluralRules(locale: string): Intl.PluralRules {
  return kept(plurals, locale, undefined, () => new Intl.PluralRules(locale));
}
