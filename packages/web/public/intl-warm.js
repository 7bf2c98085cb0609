// A tab's first Intl formatter of any kind loads the ICU data behind them all, which costs far more
// than every later one (tens of ms of CPU, far more on a busy machine); every page shows dates or
// counts. index.html runs this on its own (async, nothing imported) while the app's scripts are
// still on their way, so that the first render does not pay it.
Intl.DateTimeFormat().resolvedOptions();
new Intl.NumberFormat().format(0);
new Intl.PluralRules().select(0);
