import { useMyPermissions } from '../../../app/permissions';
import { Loading } from '../../../components/Status';
import { usePageTitle } from '../../../components/usePageTitle';
import { useT } from '../../../i18n/I18n';
import { JudgectlHint } from '../JudgectlHint';
import { ClassListPanel } from './ClassListPanel';
import { EnrolSearch } from './EnrolSearch';
import { IssuedPasswords } from './IssuedPasswords';
import { usePeople } from './issued';
import { MembersPanel } from './MembersPanel';

/**
 * An activity's people: its members and what they are in it, enrolling accounts by search or from
 * a class list, creating accounts from one (their passwords shown once, printable as slips), making
 * a co-teacher, taking people out. Each part shows only when the reader may do it.
 */
export default function PeoplePage() {
  const t = useT();
  const { activity } = usePeople();
  usePageTitle(t('staff.people.title', { name: activity.name }));
  const perms = useMyPermissions(activity.id);
  if (perms.isPending) return <Loading />;
  const may = (k: Parameters<NonNullable<typeof perms.data>['has']>[0]) => !!perms.data?.has(k);
  const mayGrant = may('grant:update');
  const findsUsers = may('user:read:all');
  return (
    <section className="staff-people">
      <h2 className="page-title">{t('staff.people.heading')}</h2>
      <IssuedPasswords />
      {mayGrant && findsUsers && (
        <div className="people-add">
          <EnrolSearch />
          <ClassListPanel mayCreate={may('user:create')} />
        </div>
      )}
      {mayGrant && !findsUsers && <p className="notice">{t('staff.people.noLookup')}</p>}
      <MembersPanel mayGrant={mayGrant} mayReadUsers={findsUsers} />
      {mayGrant && (
        <>
          <JudgectlHint command={`judgectl activities grant-manager ${activity.slug} USERNAME`} />
          <JudgectlHint command={`judgectl activities remove ${activity.slug} USERNAME`} />
        </>
      )}
    </section>
  );
}
