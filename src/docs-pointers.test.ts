// Every pointer resolves: the paths and doc sections that comments and docs cite lead somewhere a
// reader of a clone can open. A failure lists each pointer that leads nowhere as file:line.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { projectRoot } from './project-root';

/**
 * What counts as a pointer:
 * - a repository path that starts with a top-level folder (`src/`, `docs/`, `test/`, …) or names a
 *   root file (`README.md`, `package.json`, …), bare or backticked, with an optional `#anchor`
 *   (a heading of that markdown file) or `:line`;
 * - a markdown file named alone (`deliveries.md`, `architecture.md`): relative to the file that
 *   names it, else in docs/, else at the root;
 * - in markdown, a link's target (`[text](target#anchor)`, `(#anchor)` for the same file);
 * - after a markdown file, a quoted section (`docs/api.md, "Errors"`): a heading of that file that
 *   starts with those words, a bold label (`**Eager start.**`) or a list item's first words; in a
 *   doc, `("Counts" below)` (or above) the same in the doc itself.
 * A placeholder stands for a name not chosen yet (`…/migrations/<year-month>/<timestamp>-x.ts`):
 * the path up to the first `<` must exist. A glob (`*`) must match at least one file.
 * Comments are read in code (src/, workflows/, activities/, test/, bench/, scripts/); all the text
 * of the docs, code blocks included. A rate such as `workflows/s` is not a path. Nothing may point
 * at the contract's spec, by its file name (spec + .md) or by a section in parentheses (the word,
 * a colon or comma, the section): it is not in the repository.
 */
const TOP_FOLDERS = [
  'src',
  'docs',
  'test',
  'bench',
  'scripts',
  'workflows',
  'activities',
  'examples',
  'deploy',
];
const ROOT_FILES = [
  'README.md',
  'CONTRIBUTING.md',
  'BENCHMARKS.md',
  'package.json',
  'jest.config.js',
  'tsconfig.json',
  'tsconfig.build.json',
  '.oxlintrc.json',
  'docker-compose.yml',
  'Dockerfile',
  'vite.config.ts',
  '.dependency-cruiser.cjs',
  '.ci/run',
];
const CODE_FOLDERS = ['src', 'workflows', 'activities', 'test', 'bench', 'scripts'];
const DOCS = /^(README|CONTRIBUTING|BENCHMARKS)\.md$|^docs\/[^/]+\.md$/;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const PATH_CHARS = String.raw`[\w@.\-/<>*]`;
const PATH = new RegExp(
  String.raw`(?<![\w.\-/@])(?:(?:${TOP_FOLDERS.join('|')})/${PATH_CHARS}*|(?:${ROOT_FILES.map(escape).join('|')})(?![\w.]))` +
    String.raw`(?:#[\w\-]+)?`,
  'g',
);
const BARE_MD = /(?<![\w.\-/@])[\w.-]+\.md(?:#[\w-]+)?(?![\w/])/g;
/** `workflows/s`, `src/min`: a count per unit of time, not a path. */
const RATE = /^\w+\/(s|min|h)$/;
/** A section of the contract cited by name (the word spec, a colon, `Authentication 6`): users never see it. */
const CITES_SPEC = /(?:\(|; )spec[:,]\s/;
const SECTION_HERE = /"([^"]+)" (?:below|above)\)/g;
const LINK_TARGET = /\]\(([^)\s]+)\)/g;
const QUOTED_SECTION = /([\w./-]+\.md)`?\]?(?:\([^)]*\))?\)?,? "([^"]+)"/g;

const root = projectRoot();
const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((file) => file !== '');
const files = new Set(tracked);
const folders = new Set(
  tracked.flatMap((file) =>
    file
      .split('/')
      .slice(0, -1)
      .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
  ),
);

/** GitHub's anchor of a heading: lower case, spaces to '-', punctuation but '-' and '_' dropped. */
export function anchorOf(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The headings of a markdown text, outside fenced code, and their anchors (duplicates numbered). */
export function headingsOf(markdown: string): { text: string; anchor: string }[] {
  const seen = new Map<string, number>();
  const headings: { text: string; anchor: string }[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = anchorOf(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    headings.push({
      text: heading[1]!.replace(/[`*]/g, ''),
      anchor: count === 0 ? base : `${base}-${count}`,
    });
  }
  return headings;
}

/** The comment text of a JS/TS source, line by line (strings, template literals and regexes skipped). */
export function commentLines(source: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let line = 1;
  let i = 0;
  let previous = '';
  const push = (text: string) => {
    const last = out[out.length - 1];
    if (last && last.line === line) last.text += text;
    else out.push({ line, text });
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      push(source.slice(i + 2, end === -1 ? source.length : end));
      i = end === -1 ? source.length : end;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const body = source.slice(i + 2, end === -1 ? source.length : end);
      body.split('\n').forEach((text, k) => {
        if (k > 0) line++;
        push(text);
      });
      i = end === -1 ? source.length : end + 2;
    } else if (c === '"' || c === "'" || c === '`') {
      // A quote ends at its line's end unless it is a template literal (an apostrophe in JSX text).
      i++;
      while (i < source.length && source[i] !== c && (c === '`' || source[i] !== '\n')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '\n') line++;
        i++;
      }
      if (source[i] === c) i++;
      previous = c;
    } else if (c === '/' && /[(,=:[!&|?{};+\-*%<>~^]|^$/.test(previous)) {
      i++;
      let inClass = false;
      while (i < source.length && source[i] !== '\n' && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        i++;
      }
      i++;
      previous = '/';
    } else {
      if (!/\s/.test(c)) previous = c;
      i++;
    }
  }
  return out;
}

/** The pointers on one line of text: paths, lone markdown names, link targets. */
export function pointersIn(text: string, markdown: boolean): string[] {
  const found = [...text.matchAll(PATH)].map((match) => match[0]);
  found.push(...[...text.matchAll(BARE_MD)].map((match) => match[0]));
  if (markdown) {
    for (const [, target] of text.matchAll(LINK_TARGET)) {
      if (!/^[a-z][a-z+.-]*:/i.test(target!)) found.push(target!);
    }
  }
  const pointers = found.map((pointer) => pointer.replace(/[.,:;]+$/, '').replace(/:\d+(-\d+)?$/, ''));
  return [...new Set(pointers.filter((pointer) => !RATE.test(pointer)))];
}

const texts = new Map<string, string>();
const read = (file: string) => {
  if (!texts.has(file)) texts.set(file, readFileSync(join(root, file), 'utf8'));
  return texts.get(file)!;
};

/** Where a pointer written in `from` leads, or why it leads nowhere. */
function resolve(from: string, pointer: string): { file?: string; problem?: string } {
  const [path, anchor] = pointer.split('#') as [string, string | undefined];
  if (/(^|\/)spec\.md$/.test(path)) return { problem: 'spec.md is not in the repository: cite the docs' };
  let file: string | undefined = path === '' ? from : undefined;
  if (!file) {
    const candidates = path.includes('/')
      ? [posix.normalize(posix.join(dirname(from), path)), posix.normalize(path)]
      : [posix.join(dirname(from), path), `docs/${path}`, path];
    const relativeFirst = DOCS.test(from) || !TOP_FOLDERS.some((folder) => path.startsWith(`${folder}/`));
    const ordered = relativeFirst ? candidates : [...candidates].reverse();
    if (path.includes('<')) {
      const stem = path.slice(0, path.indexOf('<'));
      const folder = stem.endsWith('/') ? stem.slice(0, -1) : dirname(stem);
      return folders.has(folder) ? {} : { problem: `no folder ${folder} before the placeholder` };
    }
    if (path.includes('*')) {
      const glob = new RegExp(
        `^${path
          .split('*')
          .map(escape)
          .join('[^/]*')
          .replace(/\[\^\/\]\*\[\^\/\]\*/g, '.*')}$`,
      );
      return tracked.some((candidate) => glob.test(candidate)) ? {} : { problem: 'the glob matches no file' };
    }
    file = ordered.find((candidate) => files.has(candidate) || folders.has(candidate.replace(/\/$/, '')));
    if (!file) return { problem: 'no such file' };
  }
  if (anchor === undefined) return { file };
  if (!file.endsWith('.md')) return { problem: `#${anchor} on a file that is not markdown` };
  return headingsOf(read(file)).some((heading) => heading.anchor === anchor)
    ? { file }
    : { problem: `${file} has no heading #${anchor}` };
}

/** Whether `section` (quoted after a pointer to `file`) names a heading or a bold label of it. */
function hasSection(file: string, section: string): boolean {
  const wanted = section.replace(/[`*]/g, '').toLowerCase();
  const text = read(file);
  return (
    headingsOf(text).some((heading) => heading.text.toLowerCase().startsWith(wanted)) ||
    text.toLowerCase().includes(`**${wanted}`) ||
    text.toLowerCase().includes(`\n- ${wanted}`)
  );
}

function brokenPointers(): string[] {
  const broken: string[] = [];
  const sources = tracked.filter(
    (file) =>
      DOCS.test(file) ||
      (CODE_FOLDERS.some((folder) => file.startsWith(`${folder}/`)) && /\.(ts|tsx|mjs|cjs|js)$/.test(file)),
  );
  for (const from of sources) {
    const markdown = from.endsWith('.md');
    const lines = markdown
      ? read(from)
          .split('\n')
          .map((text, i) => ({ line: i + 1, text }))
      : commentLines(read(from));
    for (const { line, text } of lines) {
      if (CITES_SPEC.test(text))
        broken.push(`${from}:${line}: cites the spec, which is not in the repository`);
      for (const target of pointersIn(text, markdown)) {
        const { problem } = resolve(from, target);
        if (problem) broken.push(`${from}:${line}: ${target} (${problem})`);
      }
      for (const [, section] of markdown ? text.matchAll(SECTION_HERE) : []) {
        if (!hasSection(from, section!)) broken.push(`${from}:${line}: "${section}" (no such section here)`);
      }
      for (const [, target, section] of text.matchAll(QUOTED_SECTION)) {
        const { file } = resolve(from, target!);
        if (file?.endsWith('.md') && !hasSection(file, section!)) {
          broken.push(`${from}:${line}: ${target}, "${section}" (${file} has no such section)`);
        }
      }
    }
  }
  return broken;
}

describe('pointers in comments and docs', () => {
  it('reads GitHub anchors the way GitHub writes them', () => {
    expect(anchorOf('MCP (`POST /api/v1/mcp`)')).toBe('mcp-post-apiv1mcp');
    expect(anchorOf('What is kept, for how long, and why')).toBe('what-is-kept-for-how-long-and-why');
    expect(anchorOf('Retired (legacy) events')).toBe('retired-legacy-events');
    expect(anchorOf('Resend failed since …')).toBe('resend-failed-since-');
    expect(headingsOf('# A\n## A\n```\n# not a heading\n```\n').map((h) => h.anchor)).toEqual(['a', 'a-1']);
  });

  it('finds comments, not strings', () => {
    const source = [
      "const a = '// docs/x.md'; // see docs/api.md#errors",
      '/* src/a.ts',
      '   src/b.ts */ const r = /\\/\\//; // src/c.ts',
      "<p>Don't stop</p>",
      '// src/d.ts',
    ].join('\n');
    const found = commentLines(source).flatMap(({ line, text }) =>
      pointersIn(text, false).map((pointer) => `${line} ${pointer}`),
    );
    expect(found).toEqual(['1 docs/api.md#errors', '2 src/a.ts', '3 src/b.ts', '3 src/c.ts', '5 src/d.ts']);
  });

  it('resolves every path and doc section that a comment or a doc cites', () => {
    expect(brokenPointers()).toEqual([]);
  });
});
