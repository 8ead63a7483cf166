#!/usr/bin/env node
// Fails when the TypeScript files under a folder import each other in a circle. Every relative
// specifier counts, type-only imports and re-exports included: a cycle of types still ties the
// files' layers together, and the layer cake only holds if each file sits above what it uses.
//
//   node scripts/check-import-cycles.mjs [dir]     dir defaults to src
//
// Folders are held to the same rule: when a file of folder A imports one of folder B, no file
// of B may import one of A (a folder and its own subfolders aside, such as cli/main.ts and
// cli/commands), so that the stages of src/core and the adapters stay layered as folders too.
// A folder's imports are its own files' and its subfolders' (an import of a/b/c from x/y counts
// for a/b and a too, towards x/y and x), so a subfolder never hides a cycle of its parents.
//
// Each cycle is printed as a chain of paths that starts and ends on the same file or folder;
// the exit code is 1 when there is one, 0 otherwise.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Returns the .ts files under dir (test files left out), sorted. */
export function listSourceFiles(dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...listSourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.test.ts'))
      found.push(path);
  }
  return found.sort();
}

/** Returns the relative specifiers a source text imports or re-exports from. */
export function readSpecifiers(text) {
  // TypeScript's own pre-parser: static imports and re-exports (type-only ones included),
  // side-effect imports and import('…'), with comments and strings told apart from code.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return [...new Set(importedFiles.map((file) => file.fileName).filter((name) => name.startsWith('.')))];
}

/** Returns the file a relative specifier of `from` names, or undefined when none exists. */
function resolveSpecifier(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => candidate.endsWith('.ts') && existsSync(candidate));
}

/** Returns the import graph of files: each file mapped to the files it imports, sorted. */
export function readImportGraph(files) {
  const graph = new Map();
  for (const file of files) {
    const targets = new Set();
    for (const specifier of readSpecifiers(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier);
      if (target !== undefined) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** Returns the strongly connected components of more than one file (or a file importing itself), by Tarjan's algorithm. */
export function findStrongComponents(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const frames = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      const targets = graph.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          frames.push({ node: target, next: 0 });
        } else if (onStack.has(target)) low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      const selfImport = (graph.get(frame.node) ?? []).includes(frame.node);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  }
  return components;
}

/** Returns one cycle through a component as a chain of files, the first file repeated at the end. */
export function traceCycle(graph, component) {
  const members = new Set(component);
  const start = component[0];
  // Breadth-first from start back to start within the component: the shortest cycle through it.
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const chain = [];
        for (let at = node; at !== start; at = previous.get(at)) chain.unshift(at);
        return [start, ...chain, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Returns every import cycle among the .ts files under dir, each as a chain of paths relative to dir. */
export function findImportCycles(dir) {
  const root = resolve(dir);
  const graph = readImportGraph(listSourceFiles(root));
  return findStrongComponents(graph).map((component) =>
    traceCycle(graph, component).map((file) => relative(root, file)),
  );
}

/** Returns whether one folder (relative path, '' for the root) is the other or holds it. */
function isNested(a, b) {
  return a === b || a === '' || b === '' || b.startsWith(`${a}/`) || a.startsWith(`${b}/`);
}

/** Returns a folder (relative path) and every folder above it, up to the root's children. */
function ancestors(folder) {
  const parts = folder === '' ? [] : folder.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Returns every import cycle among the folders under dir (a folder's files and its subfolders' files), as chains of folders relative to dir. */
export function findFolderCycles(dir) {
  const root = resolve(dir);
  const graph = readImportGraph(listSourceFiles(root));
  const folders = new Map();
  for (const [file, targets] of graph) {
    const from = relative(root, dirname(file));
    const edges = folders.get(from) ?? new Set();
    folders.set(from, edges);
    for (const target of targets) {
      const to = relative(root, dirname(target));
      // Rolled up to every ancestor on both sides, so a subfolder cannot hide a cycle of its parents.
      for (const a of ancestors(from))
        for (const b of ancestors(to)) {
          if (isNested(a, b)) continue;
          const rolled = folders.get(a) ?? new Set();
          folders.set(a, rolled);
          rolled.add(b);
        }
    }
  }
  const folderGraph = new Map([...folders].map(([folder, edges]) => [folder, [...edges].sort()]));
  return findStrongComponents(folderGraph).map((component) => traceCycle(folderGraph, component));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? 'src';
  const cycles = findImportCycles(dir);
  const folderCycles = findFolderCycles(dir);
  for (const cycle of cycles) console.error(`import cycle in ${dir}: ${cycle.join(' -> ')}`);
  for (const cycle of folderCycles) console.error(`folder import cycle in ${dir}: ${cycle.join(' -> ')}`);
  if (cycles.length + folderCycles.length > 0) {
    console.error(
      `${cycles.length + folderCycles.length} import cycle(s); move what both sides use below both.`,
    );
    process.exit(1);
  }
}
