import type { ParticipantActivity } from '@judge/contract';
import { useOutletContext } from 'react-router';
import type { ActivityStaffAccess } from '../sections';

/** What the staff pages of one activity read from their frame (StaffActivityLayout). */
export interface StaffActivityContext {
  activity: ParticipantActivity;
  access: ActivityStaffAccess;
}

/** The activity whose staff page this is, and what the reader may do in it. */
export function useStaffActivity(): StaffActivityContext {
  return useOutletContext<StaffActivityContext>();
}
