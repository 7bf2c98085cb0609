import DOMPurify from 'dompurify';
import 'katex/dist/katex.min.css';

/**
 * Statement HTML made safe to insert: scripts, handlers and foreign frames go; what KaTeX's output
 * needs stays (its classes and inline styles, and the MathML a screen reader reads, semantics and
 * annotation included). Loaded only with a statement that is HTML or Markdown, with KaTeX's styles
 * and fonts, which the bundle serves from this origin.
 */
export function sanitizeStatement(html: string): string {
  return DOMPurify.sanitize(html, {
    ADD_TAGS: ['semantics', 'annotation'],
    ADD_ATTR: ['encoding', 'aria-hidden'],
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
  });
}
