import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { grammarFor } from './grammars';
import { highlightStyle } from './highlight';
import './editor.css';

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  /** Called with the whole text after a paste (the submit form guesses the language from it). */
  onPaste?: (value: string) => void;
  language?: { id: string; extensions: string[] };
  /** A file's name: its extension picks the highlighting before the language does. */
  fileName?: string;
  readOnly?: boolean;
  /** The accessible name of the editing area. */
  label: string;
  /** The id of the text that explains the keys (Tab indents; Esc then Tab leaves). */
  describedBy?: string;
}

const theme = EditorView.theme({
  '&': { border: '1px solid var(--border)', borderRadius: '6px', background: 'var(--bg)', color: 'var(--fg)', fontSize: '0.95rem' },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '2px' },
  '.cm-scroller': { fontFamily: 'var(--mono)', maxHeight: '70vh' },
  '.cm-gutters': { background: 'var(--bg-soft)', color: 'var(--muted)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { background: 'var(--bg-soft)' },
  '.cm-content': { caretColor: 'var(--fg)' },
});

// room to write in; a read-only source is as tall as its text
const writingRoom = EditorView.theme({ '.cm-scroller': { minHeight: '12rem' } });

function baseExtensions(props: CodeEditorProps, onDoc: (v: string) => void, onPaste: (v: string) => void): Extension[] {
  return [
    props.readOnly ? [] : writingRoom,
    lineNumbers(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    highlightActiveLine(),
    syntaxHighlighting(highlightStyle),
    // Tab indents, as programmers expect; Escape then Tab (or Ctrl-M) moves focus on, CodeMirror's own way out
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of({ 'aria-label': props.label, ...(props.describedBy ? { 'aria-describedby': props.describedBy } : {}) }),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      const text = u.state.doc.toString();
      onDoc(text);
      if (u.transactions.some((tr) => tr.isUserEvent('input.paste'))) onPaste(text);
    }),
    theme,
  ];
}

/** The code editor (CodeMirror 6), loaded as a chunk of its own the first time a page shows it. */
export default function CodeEditor(props: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const grammar = useRef(new Compartment());
  const editable = useRef(new Compartment());
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const onPaste = useRef(props.onPaste);
  onPaste.current = props.onPaste;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: props.value,
        extensions: [
          ...baseExtensions(
            props,
            (text) => onChange.current?.(text),
            (text) => onPaste.current?.(text),
          ),
          grammar.current.of([]),
          editable.current.of([EditorState.readOnly.of(!!props.readOnly), EditorView.editable.of(!props.readOnly)]),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // the view is made once; later props reach it through the effects below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // a value set from outside (a restored draft, a chosen file) replaces the text
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== props.value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: props.value } });
  }, [props.value]);

  useEffect(() => {
    let live = true;
    const load = grammarFor(props.language, props.fileName);
    void (load ? load() : Promise.resolve([])).then((ext) => {
      if (live) view.current?.dispatch({ effects: grammar.current.reconfigure(ext) });
    });
    return () => {
      live = false;
    };
  }, [props.language, props.fileName]);

  return <div ref={host} className="code-editor" data-readonly={props.readOnly ? 'true' : undefined} />;
}
