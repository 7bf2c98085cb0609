import { ErrorBox, Loading } from '../../../components/Status';
import { Statement } from '../../problem/Statement';
import { useVersionContent } from './queries';
import '../../problem/problem.css';

/** A version's statement through the participants' own Statement component: what they will read, rendered the same way. */
export function StatementPreview({ problemId, versionId }: { problemId: string; versionId: string }) {
  const content = useVersionContent(problemId, versionId);
  if (content.isPending) return <Loading />;
  if (content.isError) return <ErrorBox error={content.error} />;
  return <Statement statements={content.data} />;
}
