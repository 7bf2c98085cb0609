import { lazy, Suspense } from 'react';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { Loading } from '../components/Status';
import { usePageTitle } from '../components/usePageTitle';
import { useT } from '../i18n/I18n';
import { Layout } from './Layout';
import { lazyPage } from './lazyPage';
import { RequireAuth } from './RequireAuth';
import { staffActivityLayoutChunk, staffLayoutChunk, staffStreamChunk } from './staffChunks';

// each page is its own chunk, so the first load carries only the frame and the page it shows
const SignIn = lazy(() => import('../pages/auth/SignIn'));
const Activities = lazy(() => import('../pages/activities/ActivitiesPage'));
const ActivityLayout = lazy(() => import('../pages/activity/ActivityLayout'));
const ActivityHome = lazy(() => import('../pages/activity/ActivityHome'));
const ProblemPage = lazy(() => import('../pages/problem/ProblemPage'));
const Submissions = lazy(() => import('../pages/submissions/SubmissionsPage'));
const Submission = lazy(() => import('../pages/submissions/SubmissionPage'));
const Register = lazy(() => import('../pages/auth/Register'));
const DocumentPage = lazy(() => import('../pages/documents/DocumentPage'));
const ForgotPassword = lazy(() => import('../pages/auth/ForgotPassword'));
const ResetPassword = lazy(() => import('../pages/auth/ResetPassword'));
const ConfirmEmail = lazy(() => import('../pages/auth/ConfirmEmail'));
const Account = lazy(() => import('../pages/account/AccountPage'));
const Standings = lazy(() => import('../pages/standings/StandingsPage'));
const Scoreboard = lazy(() => import('../pages/scoreboard/ScoreboardPage'));
const Projector = lazy(() => import('../pages/scoreboard/ProjectorPage'));
const Display = lazy(() => import('../pages/scoreboard/DisplayPage'));
const Ceremony = lazy(() => import('../pages/ceremony/CeremonyPage'));
const Questions = lazy(() => import('../pages/questions/QuestionsPage'));
const Printouts = lazy(() => import('../pages/printouts/PrintoutsPage'));
const StaffLayout = lazyPage(staffLayoutChunk);
const StaffQuestions = lazy(() => import('../pages/staff/questions/QuestionsPage'));
const StaffAnnounce = lazy(() => import('../pages/staff/AnnouncePage'));
const StaffPrintouts = lazy(() => import('../pages/staff/printouts/PrintoutsPage'));
const StaffUsers = lazy(() => import('../pages/staff/users/UsersPage'));
const StaffUser = lazy(() => import('../pages/staff/users/UserPage'));
const StaffRoles = lazy(() => import('../pages/staff/roles/RolesPage'));
const StaffInstance = lazy(() => import('../pages/staff/instance/InstancePage'));
const StaffProviders = lazy(() => import('../pages/staff/providers/ProvidersPage'));
const StaffLti = lazy(() => import('../pages/staff/lti/LtiPage'));
const StaffActivityLayout = lazyPage(staffActivityLayoutChunk);
const StaffRunners = lazy(() => import('../pages/staff/runners/RunnersPage'));
const StaffStandings = lazy(() => import('../pages/staff/standings/StaffStandingsPage'));
const StaffPeopleFrame = lazy(() => import('../pages/staff/people/PeopleFrame'));
const StaffPeople = lazy(() => import('../pages/staff/people/PeoplePage'));
const StaffSlips = lazy(() => import('../pages/staff/people/SlipsPage'));
const StaffHome = lazy(() => import('../pages/staff/home/StaffHome'));
const StaffDashboard = lazy(() => import('../pages/staff/dashboard/DashboardPage'));
const StaffNewActivity = lazy(() => import('../pages/staff/activities/NewActivityPage'));
const StaffSettings = lazy(() => import('../pages/staff/activities/SettingsPage'));
const StaffSeries = lazy(() => import('../pages/staff/activities/SeriesPage'));
const StaffProblemLibrary = lazy(() => import('../pages/staff/problems/LibraryPage'));
const StaffProblem = lazy(() => import('../pages/staff/problems/ProblemPage'));
const StaffActivityProblems = lazy(() => import('../pages/staff/problems/ActivityProblemsPage'));
const StaffSubmissions = lazyPage(staffStreamChunk);
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
            <Route path="/documents/:kind" element={<DocumentPage />} />
            {/* reached from mailed links, signed in or not */}
            <Route path="/forgot-password" element={<ForgotPassword />} />
            <Route path="/reset-password" element={<ResetPassword />} />
            <Route path="/confirm-email" element={<ConfirmEmail />} />
            <Route path="/account" element={guarded(<Account />)} />
            {/* not guarded: a public scoreboard is for anybody; the server decides who may read it */}
            <Route path="/a/:activity/scoreboard" element={<Scoreboard />} />
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
              <Route index element={<StaffHome />} />
              <Route path="questions" element={<StaffQuestions />} />
              <Route path="announce" element={<StaffAnnounce />} />
              <Route path="printouts" element={<StaffPrintouts />} />
              <Route path="problems" element={<StaffProblemLibrary />} />
              <Route path="problems/:id" element={<StaffProblem />} />
              <Route path="users" element={<StaffUsers />} />
              <Route path="users/:id" element={<StaffUser />} />
              <Route path="roles" element={<StaffRoles />} />
              <Route path="instance" element={<StaffInstance />} />
              <Route path="providers" element={<StaffProviders />} />
              <Route path="lti" element={<StaffLti />} />
              <Route path="runners" element={<StaffRunners />} />
              <Route path="a/:activity" element={<StaffActivityLayout />}>
                <Route index element={<StaffDashboard />} />
                <Route path="standings" element={<StaffStandings />} />
                {/* one frame around People and Slips: the passwords just issued live in it, and go when it is left */}
                <Route element={<StaffPeopleFrame />}>
                  <Route path="people" element={<StaffPeople />} />
                  <Route path="slips" element={<StaffSlips />} />
                </Route>
                <Route path="settings" element={<StaffSettings />} />
                <Route path="series" element={<StaffSeries />} />
                <Route path="problems" element={<StaffActivityProblems />} />
                <Route path="submissions" element={<StaffSubmissions />} />
                <Route path="submissions/:id" element={<StaffSubmission />} />
              </Route>
              <Route path="new" element={<StaffNewActivity />} />
            </Route>
            {/* full screen over the layout: the presenter's laptop and the screens that follow it */}
            <Route path="/ceremony/:activity" element={guarded(<Ceremony />)} />
            <Route path="*" element={<NotFound />} />
          </Route>
          {/* the room's screens: full screen without the app's frame, signed in or not (the server decides) */}
          <Route path="/a/:activity/projector" element={<Projector />} />
          <Route path="/display/:token" element={<Display />} />
        </Routes>
      </Suspense>
    </BrowserRouter>
  );
}
