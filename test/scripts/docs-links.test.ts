// The documentation's links hold: every relative link in README.md and docs/**/*.md names a file or folder of the
// repository, and a link to a heading of a Markdown file (`IT.md#8-the-centers-database-call-center-mode`) names a
// heading that file has, spelt as GitHub makes its anchors. Links in code (fenced blocks, `inline`) are text, not links.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** README.md and every Markdown file under docs/, as paths from the repository's root. */
function documents(): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => path.join('docs', file));
  return ['README.md', ...docs.sort()];
}

/** The text without fenced code blocks. */
function unfenced(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** The text without fenced code blocks and inline code spans: what is left is what GitHub renders as prose. */
function prose(markdown: string): string {
  return unfenced(markdown).replace(/(`+)[^`\n]*?\1/g, '');
}

/** Every link target of a text: `[words](target)` and `[words](target "title")`. */
function links(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading = ''] of unfenced(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = anchor(heading.replace(/`/g, ''));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

const external = /^(?:[a-z][a-z0-9+.-]*:|\/\/)/i;

describe('the documentation links', () => {
  it('reads the README and the docs folder', () => {
    expect(documents()).toEqual(expect.arrayContaining(['README.md', path.join('docs', 'README.md')]));
  });

  it('sees a link as GitHub does: not inside code, with its anchor', () => {
    const text = '# A heading: `code` (and more)\n[a](b.md#c) `[x](y.md)`\n```\n[z](w.md)\n```\n[t](u.md "title")';
    expect(links(text)).toEqual(['b.md#c', 'u.md']);
    expect([...anchors(text)]).toEqual(['a-heading-code-and-more']);
  });

  it.each(documents())('every relative link in %s names a file that exists, and a heading it has', (document) => {
    const text = readFileSync(path.join(root, document), 'utf8');
    const broken: string[] = [];
    for (const target of links(text)) {
      if (external.test(target)) continue;
      const [file = '', fragment] = target.split('#');
      const resolved =
        file === '' ? path.join(root, document) : path.resolve(path.dirname(path.join(root, document)), file);
      if (!existsSync(resolved)) {
        broken.push(`${target}: no ${path.relative(root, resolved)}`);
        continue;
      }
      if (fragment !== undefined && resolved.endsWith('.md')) {
        if (!anchors(readFileSync(resolved, 'utf8')).has(decodeURIComponent(fragment))) {
          broken.push(`${target}: ${path.relative(root, resolved)} has no heading #${fragment}`);
        }
      }
    }
    expect(broken, document).toEqual([]);
  });
});
