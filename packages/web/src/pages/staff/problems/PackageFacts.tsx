import type { ProblemVersion } from '@judge/contract';
import { useT } from '../../../i18n/I18n';

/**
 * What the server read in a version's package: its format, its tests, its limits (the package's,
 * and the instance's maxima where they cut one), and how it checks output.
 */
export function PackageFacts({ version }: { version: ProblemVersion }) {
  const t = useT();
  const p = version.package;
  if (!p) return <p className="muted">{t('staff.problems.facts.noPackage')}</p>;
  const time =
    p.timeLimitSeconds === undefined
      ? t('staff.problems.facts.default')
      : p.timeLimitSource === 'trial'
        ? t('staff.problems.facts.timeByTrial', { seconds: p.timeLimitSeconds })
        : t('staff.problems.facts.seconds', { seconds: p.timeLimitSeconds });
  const mib = (n: number | undefined) => (n === undefined ? t('staff.problems.facts.default') : t('staff.problems.facts.mib', { mib: n }));
  const capped = p.capped ? Object.entries(p.capped).map(([k, v]) => `${k} ${v}`) : [];
  return (
    <dl className="package-facts">
      <dt>{t('staff.problems.facts.format')}</dt>
      <dd>{p.format}</dd>
      <dt>{t('staff.problems.facts.tests')}</dt>
      <dd>{t('staff.problems.facts.testCounts', { samples: p.sampleCount, secret: p.secretCount })}</dd>
      <dt>{t('staff.problems.facts.time')}</dt>
      <dd>{time}</dd>
      <dt>{t('staff.problems.facts.memory')}</dt>
      <dd>{mib(p.memoryMiB)}</dd>
      <dt>{t('staff.problems.facts.output')}</dt>
      <dd>{mib(p.outputMiB)}</dd>
      {p.validation && (
        <>
          <dt>{t('staff.problems.facts.validation')}</dt>
          <dd>{p.validation}</dd>
        </>
      )}
      {capped.length > 0 && (
        <>
          <dt>{t('staff.problems.facts.capped')}</dt>
          <dd>{capped.join(', ')}</dd>
        </>
      )}
    </dl>
  );
}
