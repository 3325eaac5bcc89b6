import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { projectRoot } from './project-root';

// The house style's sizes, kept by a test so that they hold without anyone remembering them: a file
// past 400 lines, a component past 250 or a folder past 20 files is split by job, never exempted.
const MAX_FILE_LINES = 400;
const MAX_COMPONENT_LINES = 250;
const MAX_FOLDER_FILES = 20;

const root = projectRoot();
const PRODUCT_ROOTS = ['src', 'workflows', 'activities'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist']);

interface Folder {
  path: string;
  files: string[];
}

function foldersUnder(dir: string): Folder[] {
  const entries = readdirSync(join(root, dir), { withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile()).map((entry) => `${dir}/${entry.name}`);
  const subfolders = entries
    .filter((entry) => entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name))
    .flatMap((entry) => foldersUnder(`${dir}/${entry.name}`));
  return [{ path: dir, files }, ...subfolders];
}

const folders = PRODUCT_ROOTS.flatMap(foldersUnder);
const sourceFiles = folders
  .flatMap((folder) => folder.files)
  .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file));

function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
}

/** A function or arrow function bound to a capitalised name, as React components are written. */
function componentsIn(file: string): { name: string; lines: number }[] {
  const text = readFileSync(join(root, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: { name: string; lines: number }[] = [];
  const span = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getEnd()).line -
    source.getLineAndCharacterOfPosition(node.getStart(source)).line +
    1;
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionDeclaration(node) && node.name && /^[A-Z]/.test(node.name.text)) {
      found.push({ name: node.name.text, lines: span(node) });
    } else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      /^[A-Z]/.test(node.name.text) &&
      node.initializer &&
      containsFunction(node.initializer)
    ) {
      found.push({ name: node.name.text, lines: span(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `() => …`, `function () {…}`, or one wrapped in a call such as `memo(…)` or `forwardRef(…)`. */
function containsFunction(node: ts.Expression): boolean {
  if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return true;
  if (ts.isCallExpression(node)) return node.arguments.some(containsFunction);
  return false;
}

describe('sizes of the product code (src/, workflows/, activities/)', () => {
  it(`has no file over ${MAX_FILE_LINES} lines`, () => {
    const offenders = sourceFiles
      .map((file) => ({ file, lines: lineCount(readFileSync(join(root, file), 'utf8')) }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(offenders).toEqual([]);
  });

  it(`has no React component over ${MAX_COMPONENT_LINES} lines`, () => {
    const offenders = sourceFiles
      .filter((file) => file.startsWith('src/web/') && file.endsWith('.tsx'))
      .flatMap((file) => componentsIn(file).map((component) => ({ file, ...component })))
      .filter(({ lines }) => lines > MAX_COMPONENT_LINES)
      .map(({ file, name, lines }) => `${file}: ${name} is ${lines} lines`);
    expect(offenders).toEqual([]);
  });

  it(`has no folder holding more than ${MAX_FOLDER_FILES} files`, () => {
    const offenders = folders
      .filter((folder) => folder.files.length > MAX_FOLDER_FILES)
      .map((folder) => `${folder.path}/: ${folder.files.length} files`);
    expect(offenders).toEqual([]);
  });

  it('reads the tree it measures', () => {
    expect(sourceFiles.length).toBeGreaterThan(100);
  });
});
