// BENCHMARKS.md holds the default run (`npm run bench`) and sections that other runs measure apart
// (`## Topology`, `## Fairness`): each run replaces its own section and keeps the others.

/** `text` with its section under `heading` (to the end or the next `## `) replaced by `section`. */
export function withSection(text: string, heading: string, section: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) return `${text.trimEnd()}\n\n${section.trim()}\n`;
  const next = text.indexOf('\n## ', start + 1);
  const after = next === -1 ? '' : text.slice(next);
  return `${text.slice(0, start).trimEnd()}\n\n${section.trim()}\n${after}`;
}

/** The section of `text` under `heading`, or '' when it has none. */
export function sectionOf(text: string, heading: string): string {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) return '';
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start, next === -1 ? undefined : next).trim();
}

/** `fresh` (a new default run) with the sections under `headings` that `previous` had. */
export function keepSections(fresh: string, previous: string, headings: readonly string[]): string {
  let text = fresh;
  for (const heading of headings) {
    const kept = sectionOf(previous, heading);
    if (kept) text = withSection(text, heading, kept);
  }
  return text;
}
