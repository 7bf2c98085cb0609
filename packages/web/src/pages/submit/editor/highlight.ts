import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/**
 * Syntax colours that keep the contrast WCAG AA asks of text (4.5:1) in light and dark: the
 * values are custom properties (submit.css), so the theme follows the page's colour scheme.
 * CodeMirror's default style has colours below that contrast (green types, orange escapes).
 */
export const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.controlKeyword, t.moduleKeyword, t.operatorKeyword, t.definitionKeyword, t.modifier], color: 'var(--hl-keyword)' },
  { tag: [t.typeName, t.className, t.namespace, t.standard(t.typeName)], color: 'var(--hl-type)' },
  { tag: [t.string, t.special(t.string), t.character, t.escape, t.regexp], color: 'var(--hl-string)' },
  { tag: [t.number, t.bool, t.atom, t.null], color: 'var(--hl-number)' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: 'var(--hl-comment)', fontStyle: 'italic' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName)), t.macroName], color: 'var(--hl-function)' },
  { tag: [t.meta, t.processingInstruction, t.annotation], color: 'var(--hl-meta)' },
  { tag: t.invalid, color: 'var(--bad)' },
]);
