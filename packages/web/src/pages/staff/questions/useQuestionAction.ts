import { useMutation, useQueryClient } from '@tanstack/react-query';
import { keys } from '../../../api/keys';

/**
 * A change to a question: the queue is fetched again once it is done (the socket would tell too,
 * but the one who acted should not wait for it).
 */
export function useQuestionAction<V>(fn: (v: V) => Promise<unknown>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => qc.invalidateQueries({ queryKey: [keys.staffQuestions({})[0]] }),
  });
}
