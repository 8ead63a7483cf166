// The line of a field, found again in the file's text. Loading keeps only where each document
// starts (parse-yaml-stream.ts), which is all a valid fleet needs; when a field is unknown, the
// file is read once more with js-yaml's node events to find the line its key is on. Every node
// opens and closes once, nested in its parent; a mapping's children are its keys and values in
// turn, a sequence's its items.
import * as jsyaml from 'js-yaml';
import { KUBE_YAML_SCHEMA } from '../kube-yaml-schema.js';
import type { PathStep } from './find-unknown-fields.js';

interface YamlNode {
  /** Zero-based line where the node opened (for a key: the key's own line). */
  line: number;
  kind: string | null;
  /** The scalar, for a key. */
  scalar?: unknown;
  children: YamlNode[];
}

/** A field to find: the document's index in its stream and the path to the field. */
export interface FieldToLocate {
  index: number;
  steps: readonly PathStep[];
}

/**
 * Returns the one-based line of each field's key, or of the nearest enclosing field found when
 * the key cannot be (a field merged in through `<<: *alias`); undefined when the text does not parse.
 */
export function locateFieldLines(content: string, fields: readonly FieldToLocate[]): (number | undefined)[] {
  const roots = readNodeTree(content);
  if (roots === undefined) return fields.map(() => undefined);
  return fields.map(({ index, steps }) => {
    const root = roots[index];
    return root === undefined ? undefined : locate(root, steps) + 1;
  });
}

function readNodeTree(content: string): YamlNode[] | undefined {
  const roots: YamlNode[] = [];
  const open: YamlNode[] = [];
  try {
    jsyaml.loadAll(content, null, {
      schema: KUBE_YAML_SCHEMA,
      listener(event, state) {
        if (event === 'open') {
          open.push({ line: state.line, kind: null, children: [] });
          return;
        }
        const node = open.pop();
        if (node === undefined) return;
        node.kind = state.kind;
        if (state.kind === 'scalar') node.scalar = state.result;
        (open[open.length - 1]?.children ?? roots).push(node);
      },
    });
  } catch {
    return undefined;
  }
  return roots;
}

// Follows the steps down the tree as far as they go; returns the line of the last key reached.
function locate(root: YamlNode, steps: readonly PathStep[]): number {
  let node = root;
  let line = root.line;
  for (const step of steps) {
    if ('index' in step) {
      const item = node.kind === 'sequence' ? node.children[step.index] : undefined;
      if (item === undefined) return line;
      node = item;
      line = Math.max(line, item.line);
      continue;
    }
    const name = 'field' in step ? step.field : step.key;
    const pair = node.kind === 'mapping' ? findPair(node, name) : undefined;
    if (pair === undefined) return line;
    line = pair.key.line;
    if (pair.value === undefined) return line;
    node = pair.value;
  }
  return line;
}

function findPair(mapping: YamlNode, name: string): { key: YamlNode; value?: YamlNode } | undefined {
  const children = mapping.children;
  for (let i = 0; i < children.length; i += 2) {
    const key = children[i];
    if (key !== undefined && key.kind === 'scalar' && String(key.scalar) === name) {
      const value = children[i + 1];
      return value === undefined ? { key } : { key, value };
    }
  }
  return undefined;
}
