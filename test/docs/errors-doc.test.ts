// docs/errors.md against src: every error class declared in src is named on that page, so a new
// kind of failure cannot ship without its code being documented; and each class on the one base
// error has a row of the table that says where it lives and names every code it may carry.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../clusters/harness/ensure-binaries.js';

const root = repoRoot();

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return entry.endsWith('.ts') ? [path] : [];
  });
}

/** A class declared in src: its base, its file, and the codes of its base's type argument. */
interface DeclaredClass {
  base: string;
  file: string;
  /** The string literals of `GitfleetError<…>`'s argument (a union, or a type alias of its file). */
  codes: string[];
}

/** Every `class X extends Y` in src, read with TypeScript's parser. */
function declaredClasses(): Map<string, DeclaredClass> {
  const declared = new Map<string, DeclaredClass>();
  for (const file of sourceFiles(join(root, 'src'))) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const aliases = new Map<string, ts.TypeNode>();
    for (const statement of source.statements)
      if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
    for (const statement of source.statements) {
      if (!ts.isClassDeclaration(statement) || !statement.name) continue;
      const extended = statement.heritageClauses
        ?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types.at(0);
      if (!extended || !ts.isIdentifier(extended.expression)) continue;
      const argument = extended.typeArguments?.[0];
      declared.set(statement.name.text, {
        base: extended.expression.text,
        file: relative(root, file),
        codes: argument ? literalsOf(argument, aliases) : [],
      });
    }
  }
  return declared;
}

/** Returns the string literals of a literal type, a union of them, or a type alias of the file. */
function literalsOf(type: ts.TypeNode, aliases: ReadonlyMap<string, ts.TypeNode>): string[] {
  if (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal)) return [type.literal.text];
  if (ts.isUnionTypeNode(type)) return type.types.flatMap((t) => literalsOf(t, aliases));
  if (ts.isParenthesizedTypeNode(type)) return literalsOf(type.type, aliases);
  if (ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName)) {
    const alias = aliases.get(type.typeName.text);
    if (alias) return literalsOf(alias, aliases);
  }
  throw new Error(`${type.getText()}: not a union of string literals the test can read`);
}

/** The declared classes that are errors: their base, or its base, … is Error. */
function errorClasses(): Map<string, DeclaredClass> {
  const declared = declaredClasses();
  const isError = (name: string, seen = new Set<string>()): boolean => {
    if (name === 'Error') return true;
    const d = declared.get(name);
    if (!d || seen.has(name)) return false;
    seen.add(name);
    return isError(d.base, seen);
  };
  return new Map([...declared].filter(([name]) => isError(name)));
}

/** The rows of the class table of docs/errors.md, as their three cells. */
function classRows(doc: string): { classes: string; where: string; codes: string }[] {
  return doc
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [classes = '', where = '', ...codes] = line.slice(1, -1).split(' | ');
      return { classes, where, codes: codes.join(' | ') };
    });
}

test('every error class in src is named in docs/errors.md', () => {
  const doc = readFileSync(join(root, 'docs/errors.md'), 'utf8');
  const classes = errorClasses();
  assert.ok(
    classes.has('GitfleetError') && classes.size > 20,
    `found only ${[...classes.keys()].join(', ')}`,
  );
  const missing = [...classes]
    .filter(([name]) => !doc.includes(`\`${name}\``))
    .map(([n, d]) => `${n} (${d.file})`);
  assert.deepEqual(missing, [], 'docs/errors.md does not name these error classes');
});

test("each class on GitfleetError has a row of docs/errors.md's table with its folder and every code", () => {
  const rows = classRows(readFileSync(join(root, 'docs/errors.md'), 'utf8'));
  const classes = [...errorClasses()].filter(([, d]) => d.base === 'GitfleetError');
  assert.ok(classes.length > 20, `found only ${classes.map(([n]) => n).join(', ')}`);
  const wrong: string[] = [];
  for (const [name, declared] of classes) {
    const row = rows.find((r) => r.classes.includes(`\`${name}\``));
    if (!row) {
      wrong.push(`${name} (${declared.file}): no row`);
      continue;
    }
    // The folder under src, or one above it (`cli` for cli/commands).
    const folder = dirname(relative('src', declared.file));
    const named = /^`([^`]+)`/.exec(row.where)?.[1];
    if (named === undefined || !(folder === named || folder.startsWith(`${named}/`)))
      wrong.push(`${name}: its row says ${row.where || 'nowhere'}, it is in ${folder}`);
    const undocumented = declared.codes.filter((code) => !row.codes.includes(`\`${code}\``));
    if (undocumented.length > 0) wrong.push(`${name}: its row does not name ${undocumented.join(', ')}`);
  }
  assert.deepEqual(wrong, [], 'docs/errors.md: rows to fix');
});
