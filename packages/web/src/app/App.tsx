import { lazy, Suspense } from 'react';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { Loading } from '../components/Status';
import { usePageTitle } from '../components/usePageTitle';
import { useT } from '../i18n/I18n';
import { Layout } from './Layout';
import { RequireAuth } from './RequireAuth';

// each page is its own chunk, so the first load carries only the frame and the page it shows
const SignIn = lazy(() => import('../pages/auth/SignIn'));
const Activities = lazy(() => import('../pages/activities/ActivitiesPage'));
const ActivityLayout = lazy(() => import('../pages/activity/ActivityLayout'));
const ActivityHome = lazy(() => import('../pages/activity/ActivityHome'));
const ProblemPage = lazy(() => import('../pages/problem/ProblemPage'));
const Submissions = lazy(() => import('../pages/submissions/SubmissionsPage'));
const Submission = lazy(() => import('../pages/submissions/SubmissionPage'));
const Register = lazy(() => import('../pages/auth/Register'));
const Account = lazy(() => import('../pages/account/AccountPage'));
const Standings = lazy(() => import('../pages/standings/StandingsPage'));
const Questions = lazy(() => import('../pages/questions/QuestionsPage'));
const Printouts = lazy(() => import('../pages/printouts/PrintoutsPage'));
const StaffLayout = lazy(() => import('../pages/staff/StaffLayout'));
const StaffQuestions = lazy(() => import('../pages/staff/questions/QuestionsPage'));
const StaffAnnounce = lazy(() => import('../pages/staff/AnnouncePage'));
const StaffPrintouts = lazy(() => import('../pages/staff/printouts/PrintoutsPage'));
const StaffActivityLayout = lazy(() => import('../pages/staff/activity/StaffActivityLayout'));
const StaffSubmissions = lazy(() => import('../pages/staff/submissions/StreamPage'));
const StaffSubmission = lazy(() => import('../pages/staff/submissions/SubmissionPage'));

function NotFound() {
  const t = useT();
  usePageTitle(t('app.notFound.title'));
  return (
    <section>
      <h1>{t('app.notFound.title')}</h1>
      <p>{t('app.notFound.text')}</p>
      <Link to="/">{t('app.notFound.home')}</Link>
    </section>
  );
}

const guarded = (el: React.ReactNode) => <RequireAuth>{el}</RequireAuth>;

export function App() {
  return (
    <BrowserRouter>
      <Suspense fallback={<Loading />}>
        <Routes>
          <Route element={<Layout />}>
            <Route path="/sign-in" element={<SignIn />} />
            <Route path="/" element={guarded(<Activities />)} />
            <Route path="/register" element={<Register />} />
            <Route path="/account" element={guarded(<Account />)} />
            <Route path="/a/:activity" element={guarded(<ActivityLayout />)}>
              <Route index element={<ActivityHome />} />
              <Route path="p/:problem" element={<ProblemPage />} />
              <Route path="submissions" element={<Submissions />} />
              <Route path="submissions/:id" element={<Submission />} />
              <Route path="standings" element={<Standings />} />
              <Route path="questions" element={<Questions />} />
              <Route path="printouts" element={<Printouts />} />
            </Route>
            <Route path="/staff" element={guarded(<StaffLayout />)}>
              <Route path="questions" element={<StaffQuestions />} />
              <Route path="announce" element={<StaffAnnounce />} />
              <Route path="printouts" element={<StaffPrintouts />} />
              <Route path="a/:activity" element={<StaffActivityLayout />}>
                <Route path="submissions" element={<StaffSubmissions />} />
                <Route path="submissions/:id" element={<StaffSubmission />} />
              </Route>
            </Route>
            <Route path="*" element={<NotFound />} />
          </Route>
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
