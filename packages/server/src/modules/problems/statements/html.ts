/**
 * An HTML statement of a package, made safe (sanitize.ts): its body only, its images pointed at
 * the statement's image files, any other image left out (an outside address would tell another
 * site who reads the statement).
 */
import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { PreparedStatement, StatementSource } from './latex.js';
import { safeHtml } from './sanitize.js';

function images(node: Root | Element, visit: (img: Element) => ElementContent[]): void {
  node.children = node.children.flatMap((child): ElementContent[] => {
    if (child.type !== 'element') return [child as ElementContent];
    if (child.tagName === 'img') return visit(child);
    images(child, visit);
    return [child];
  });
}

export function prepareHtml(source: Omit<StatementSource, 'sibling'>): PreparedStatement {
  const tree = fromHtml(source.text, { fragment: true });
  const found: string[] = [];
  images(structuredClone(tree), (img) => {
    const path = typeof img.properties['src'] === 'string' ? source.image(img.properties['src']) : undefined;
    if (path && !found.includes(path)) found.push(path);
    return [];
  });
  return {
    images: found,
    render(urlOf) {
      const copy = structuredClone(tree);
      images(copy, (img) => {
        const path = typeof img.properties['src'] === 'string' ? source.image(img.properties['src']) : undefined;
        const src = path && urlOf(path);
        return src ? [{ ...img, properties: { ...img.properties, src } }] : [];
      });
      return safeHtml(copy);
    },
  };
}
