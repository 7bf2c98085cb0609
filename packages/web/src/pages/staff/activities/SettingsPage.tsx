import { ErrorBox, Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { useStaffActivity } from '../activity/context';
import { JudgectlHint } from '../JudgectlHint';
import { DisplayLinkSection } from './DisplayLinkSection';
import { DocumentsEditor } from './DocumentsEditor';
import { FinalizeSection } from './FinalizeSection';
import { useManagedActivity, useManagedSeries } from './queries';
import { SettingsForm } from './SettingsForm';
import { StateActions } from './StateActions';
import '../staff.css';
import './activities.css';

/** /staff/a/:activity/settings: every writable setting, its documents, and publishing, archiving and deleting it. */
export default function SettingsPage() {
  const t = useT();
  const { activity: shown } = useStaffActivity();
  const a = useManagedActivity(shown.slug);
  const s = useManagedSeries(shown.slug);
  usePageTitle(t('staff.activities.settings.title', { name: shown.name }));
  if (a.isPending || s.isPending) return <Loading />;
  if (a.isError) return <ErrorBox error={a.error} />;
  if (s.isError) return <ErrorBox error={s.error} />;
  const activity = a.data;
  return (
    <div className="staff-activities">
      <h2 className="page-title">{t('staff.activities.settings')}</h2>
      <StateActions activity={activity} />
      <SettingsForm key={activity.id} activity={activity} series={s.data} />
      <JudgectlHint command={`judgectl activities update ${activity.slug} --name … --join password --join-password … --end …`} />
      <DocumentsEditor activity={activity} />
      <FinalizeSection key={`${activity.id}:finalize`} activity={activity} />
      <DisplayLinkSection activity={activity} />
    </div>
  );
}
