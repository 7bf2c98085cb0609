import { lazy, Suspense } from 'react';
import { Loading } from '../../components/Status';
import type { CodeEditorProps } from './editor/CodeEditor';

// CodeMirror is the heaviest part of the app: fetched only when a page shows code
const CodeEditor = lazy(() => import('./editor/CodeEditor'));

/** The code editor, with a loading line while its chunk arrives. */
export function LazyEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<Loading />}>
      <CodeEditor {...props} />
    </Suspense>
  );
}
