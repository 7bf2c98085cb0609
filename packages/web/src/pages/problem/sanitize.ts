import DOMPurify from 'dompurify';
import 'katex/dist/katex.min.css';

const CONFIG = {
  ADD_TAGS: ['semantics', 'annotation'],
  ADD_ATTR: ['encoding', 'aria-hidden'],
  FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'],
};

/** The page's own headings come first: a statement's title and sections sit one level below them. */
function demoteHeadings(root: DocumentFragment): void {
  for (const h of Array.from(root.querySelectorAll('h1, h2, h3, h4, h5'))) {
    const lower = document.createElement(`h${Number(h.tagName[1]) + 1}`);
    for (const a of Array.from(h.attributes)) lower.setAttribute(a.name, a.value);
    while (h.firstChild) lower.appendChild(h.firstChild);
    h.replaceWith(lower);
  }
}

/**
 * Statement HTML made safe to insert: scripts, handlers, forms and frames go; what KaTeX's output
 * needs stays (its classes and inline styles, and the MathML a screen reader reads, semantics and
 * annotation included). Loaded only with a statement that is HTML or Markdown, with KaTeX's styles
 * and fonts, which the bundle serves from this origin.
 */
export function sanitizeStatement(html: string): string {
  const fragment = DOMPurify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true });
  demoteHeadings(fragment);
  const box = document.createElement('div');
  box.appendChild(fragment);
  return box.innerHTML;
}
