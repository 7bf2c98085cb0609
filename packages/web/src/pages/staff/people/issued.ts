import { useOutletContext } from 'react-router';
import type { StaffActivityContext } from '../activity/context';

/** An account just created, with the password the server issued for it: shown once, never stored. */
export interface Issued {
  userId: string;
  username: string;
  password: string;
  name: string;
}

/** What the People and Slips pages share through their frame: the activity, and the passwords just issued. */
export interface PeopleContext extends StaffActivityContext {
  issued: Issued[];
  /** Adds passwords as accounts are made, or forgets them all (null). */
  addIssued: (more: Issued[] | null) => void;
}

export function usePeople(): PeopleContext {
  return useOutletContext<PeopleContext>();
}
