import { preloadable } from './preloadable';

// The chunks of the staff submission stream and its two frames, which staffPrefetch.ts asks for
// before the app renders and App.tsx renders as pages.
export const staffLayoutChunk = preloadable(() => import('../pages/staff/StaffLayout'));
export const staffActivityLayoutChunk = preloadable(() => import('../pages/staff/activity/StaffActivityLayout'));
export const staffStreamChunk = preloadable(() => import('../pages/staff/submissions/StreamPage'));
