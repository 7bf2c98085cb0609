import type { Problem, ProblemVersion } from '@judge/contract';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMay } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { NewVersionForm } from './NewVersionForm';
import { PackageFacts } from './PackageFacts';
import { useProblem, useVersions } from './queries';
import { SharingPanel } from './SharingPanel';
import { StatementPreview } from './StatementPreview';
import { TrialPanel } from './TrialPanel';
import { VersionList } from './VersionList';
import { VisibilityBadge } from './VisibilityBadge';
import './problems.css';

/**
 * One problem of the library for those who may read it: its versions with their notes (and a new
 * one from a package), the statement of a version exactly as participants see it, its limits, who
 * may read it, archiving, and a trial of the package's example submissions.
 */
export default function ProblemPage() {
  const t = useT();
  const { id = '' } = useParams();
  const problem = useProblem(id);
  usePageTitle(problem.data?.name ?? t('staff.problems.title'));
  if (problem.isPending) return <Loading />;
  if (problem.isError)
    return (
      <>
        <ErrorBox error={problem.error} />
        <Link to="/staff/problems">{t('staff.problems.back')}</Link>
      </>
    );
  return <ProblemView problem={problem.data} />;
}

function ProblemView({ problem }: { problem: Problem }) {
  const t = useT();
  const versions = useVersions(problem);
  const mayUpdate = useMay(undefined, 'problem:update');
  const [chosen, setChosen] = useState<string>();
  const list = versions.data ?? [];
  const version: ProblemVersion | undefined = list.find((v) => v.id === chosen) ?? list[0];
  return (
    <article className="staff-problem">
      <Link to="/staff/problems">{t('staff.problems.back')}</Link>
      <h1 className="page-title">{problem.name}</h1>
      <p className="problem-card-facts">
        <code>{problem.slug}</code>
        <VisibilityBadge problem={problem} />
        {problem.archivedAt && <span className="badge archived">{t('staff.problems.archived')}</span>}
        {problem.ownerName && <span>{t('staff.problems.owner', { name: problem.ownerName })}</span>}
        <span>{t('staff.problems.usedIn', { count: problem.attachedCount })}</span>
      </p>
      {versions.isError && <ErrorBox error={versions.error} />}
      <div className="staff-problem-columns">
        <div className="staff-problem-main">
          <section className="card" aria-labelledby="versions-title">
            <h2 id="versions-title">{t('staff.problems.versionsTitle')}</h2>
            {versions.isPending ? <Loading /> : <VersionList versions={list} chosen={version?.id} choose={setChosen} />}
            {mayUpdate && !problem.archivedAt && <NewVersionForm problem={problem} onCreated={(v) => setChosen(v.id)} />}
            <JudgectlHint command={`judgectl problems update ${problem.slug} PACKAGE.zip --note TEXT`} />
          </section>
          <section className="card" aria-labelledby="statement-title">
            <h2 id="statement-title">{version ? t('staff.problems.statementOf', { version: version.version }) : t('staff.problems.statementTitle')}</h2>
            <p className="muted">{t('staff.problems.statementNote')}</p>
            {version ? <StatementPreview problemId={problem.id} versionId={version.id} /> : !versions.isPending && <p>{t('staff.problems.noVersions')}</p>}
          </section>
        </div>
        <aside className="staff-problem-side" aria-label={t('staff.problems.side')}>
          {version && (
            <section className="card" aria-labelledby="limits-title">
              <h2 id="limits-title">{t('staff.problems.limitsOf', { version: version.version })}</h2>
              <PackageFacts version={version} />
            </section>
          )}
          {version?.hasPackage && <TrialPanel problem={problem} version={version} />}
          <SharingPanel problem={problem} />
        </aside>
      </div>
    </article>
  );
}
