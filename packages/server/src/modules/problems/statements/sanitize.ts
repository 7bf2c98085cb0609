/**
 * What a statement's HTML may hold once it leaves the converter: the structure of a document
 * (headings, lists, tables, figures, links, images) and nothing active. Math is the exception:
 * KaTeX renders it after sanitizing, as markup it produces itself (with `trust: false` it emits
 * no links, scripts or URLs), which needs its inline styles to lay out fractions and roots.
 */
import type { Element, ElementContent, Root, RootContent } from 'hast';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import { toHtml } from 'hast-util-to-html';
import katex from 'katex';

/** The class names that mark math to render after sanitizing; their text is the TeX source. */
export const INLINE_MATH = 'statement-math-inline';
export const DISPLAY_MATH = 'statement-math-display';

/** Every element's attributes as the default allows them, with any class name (the default restricts some to fixed values). */
const attributes = Object.fromEntries(
  Object.entries(defaultSchema.attributes ?? {}).map(([tag, allowed]) => [tag, allowed.filter((a) => (Array.isArray(a) ? a[0] !== 'className' : a !== 'className'))]),
);

const SCHEMA: Schema = {
  ...defaultSchema,
  // removed with their content, not unwrapped into text
  strip: ['script', 'style', 'title', 'template', 'noscript', 'textarea', 'select'],
  // ids and names of user content could shadow the app's own: prefixed, as GitHub does
  clobberPrefix: 'statement-',
  // the default keeps <input> for Markdown task lists: a statement has no use for a form control
  tagNames: [...(defaultSchema.tagNames ?? []).filter((t) => t !== 'input'), 'figure', 'figcaption', 'u', 'section', 'aside'],
  attributes: {
    ...attributes,
    '*': [...(attributes['*'] ?? []), 'className'],
    img: [...(attributes['img'] ?? []), 'alt', 'width', 'height'],
  },
  // relative URLs (the statement's images) and these protocols only: no javascript:, no data:
  protocols: { href: ['http', 'https', 'mailto'], src: ['http', 'https'], cite: ['http', 'https'], longDesc: ['http', 'https'] },
};

const classes = (e: Element): string[] => {
  const c = e.properties['className'];
  return Array.isArray(c) ? c.map(String) : [];
};

const textOf = (n: ElementContent | RootContent): string =>
  n.type === 'text' ? n.value : 'children' in n ? n.children.map((c) => textOf(c as ElementContent)).join('') : '';

function renderMath(tex: string, displayMode: boolean): string {
  return katex.renderToString(tex, {
    displayMode,
    output: 'htmlAndMathml',
    throwOnError: false, // a formula KaTeX cannot typeset is shown as its source, in red
    trust: false,
    strict: 'ignore',
    maxExpand: 1000,
    maxSize: 50,
  });
}

/** Replaces every math placeholder's children with KaTeX's markup, as raw HTML. */
function typesetMath(node: Root | Element): void {
  for (const [i, child] of node.children.entries()) {
    if (child.type !== 'element') continue;
    const cls = classes(child);
    const display = cls.includes(DISPLAY_MATH);
    if (display || cls.includes(INLINE_MATH)) {
      node.children[i] = { ...child, children: [{ type: 'raw', value: renderMath(textOf(child), display) } as unknown as ElementContent] };
    } else typesetMath(child);
  }
}

/** The statement as an HTML fragment: the tree sanitized, then its math typeset. */
export function safeHtml(tree: Root): string {
  const clean = sanitize(tree, SCHEMA) as Root;
  typesetMath(clean);
  return toHtml(clean, { allowDangerousHtml: true });
}
