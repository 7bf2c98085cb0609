import { Suspense } from 'react';
import { Link, NavLink, Outlet, useParams } from 'react-router';
import { useStaffAccess } from '../../../app/permissions';
import { ErrorBox, Loading } from '../../../components/Status';
import { useT } from '../../../i18n/I18n';
import { useActivity } from '../../activity/queries';
import { ACTIVITY_SECTIONS, type ActivityStaffAccess } from '../sections';
import type { StaffActivityContext } from './context';

/**
 * The frame of the staff pages of one activity: its name, a link to what participants see, and a
 * sidebar of its staff pages (a row of tabs on a phone). Only its managers and printout staff get
 * here; everybody else is stopped by the staff frame around it.
 */
export default function StaffActivityLayout() {
  const t = useT();
  const { activity: slug = '' } = useParams();
  const staff = useStaffAccess();
  const a = useActivity(slug);
  if (a.isPending) return <Loading />;
  if (a.isError) return <ErrorBox error={a.error} />;
  const activity = a.data;
  const access: ActivityStaffAccess = {
    manages: activity.canManage || staff.managed.some((m) => m.id === activity.id),
    printouts: staff.printouts,
  };
  const base = `/staff/a/${encodeURIComponent(activity.slug)}`;
  const sections = ACTIVITY_SECTIONS.filter((s) => s.shown(access));
  return (
    <div className="staff-activity">
      <header className="staff-activity-header">
        <h1 className="staff-activity-name">{activity.name}</h1>
        <Link to={`/a/${encodeURIComponent(activity.slug)}`}>{t('staff.activity.asParticipant')}</Link>
      </header>
      <div className="staff-activity-body">
        <nav className="staff-sidebar" aria-label={t('staff.activity.nav', { name: activity.name })}>
          {sections.map((s) => (
            <NavLink key={s.key} to={s.path ? `${base}/${s.path}` : base} end={!s.path} data-section={s.key}>
              {t(s.label)}
            </NavLink>
          ))}
        </nav>
        <div className="staff-activity-page">
          <Suspense fallback={<Loading />}>
            <Outlet context={{ activity, access } satisfies StaffActivityContext} />
          </Suspense>
        </div>
      </div>
    </div>
  );
}
