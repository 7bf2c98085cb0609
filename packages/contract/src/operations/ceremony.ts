import { z } from 'zod';
import { defineOperation } from '../operation.js';
import { Ceremony, CeremonyStepBody, CeremonyStepState } from '../schemas/ceremony.js';

const TAG = 'Award ceremony';
const Params = z.object({ idOrSlug: z.string().min(1).max(64) });

export const getCeremony = defineOperation({
  id: 'getCeremony',
  method: 'GET',
  path: '/activities/{idOrSlug}/ceremony',
  tag: TAG,
  summary: 'The award ceremony: the frozen standings, every step from them to the final ones, the awards, and the step the presenter is at',
  description:
    'As the ICPC resolver: the lowest-ranked row with a hidden cell reveals its leftmost one (the hidden submissions up to the first accepted one) and moves up; a finished row holding an award is a step of its own (a pause). ' +
    'Points contests reveal the same way in score order. The steps are computed from the freeze instants of the ranked series, whether or not the freeze has been lifted since. ' +
    'The payload holds every hidden result: only holders of ranking:read:unfrozen may read it.',
  auth: 'user',
  params: Params,
  response: Ceremony,
  status: 200,
  errors: ['forbidden', 'not_found'],
  permission: 'ranking:read:unfrozen',
  extension: true,
});

export const setCeremonyStep = defineOperation({
  id: 'setCeremonyStep',
  method: 'PUT',
  path: '/activities/{idOrSlug}/ceremony/step',
  tag: TAG,
  summary: "The presenter moved to a step: kept with the activity and sent to the screens following the presenter (ceremonyStepChanged)",
  auth: 'user',
  params: Params,
  body: CeremonyStepBody,
  response: CeremonyStepState,
  status: 200,
  errors: ['forbidden', 'not_found', 'validation_failed'],
  permission: 'ranking:read:unfrozen',
  extension: true,
});
