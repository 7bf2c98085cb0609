import { Suspense, useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../../../components/Status';
import { useStaffActivity } from '../activity/context';
import type { Issued, PeopleContext } from './issued';
import './people.css';

/**
 * The frame of an activity's People and Slips pages. The passwords of accounts just created live
 * in its state and nowhere else (no storage, no history state, no log): moving between the two
 * pages keeps them for printing, and leaving both (or reloading) forgets them.
 */
export default function PeopleFrame() {
  const ctx = useStaffActivity();
  const [issued, setIssued] = useState<Issued[]>([]);
  const addIssued = useCallback((more: Issued[] | null) => setIssued((now) => (more === null ? [] : [...now, ...more])), []);
  return (
    <Suspense fallback={<Loading />}>
      <Outlet context={{ ...ctx, issued, addIssued } satisfies PeopleContext} />
    </Suspense>
  );
}
