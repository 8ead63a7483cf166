// What the hub may change in an encrypted document it passes through, without its key. SOPS's
// MAC is a hash of the values in document order, encrypted with the data key: all values, or
// with `mac_only_encrypted: true` the encrypted ones only. The hub cannot recompute it, so:
//
// | change to a value                      | mac_only_encrypted | otherwise                          |
// |----------------------------------------|--------------------|------------------------------------|
// | an encrypted one: changed, removed, added, moved | refused  | refused                            |
// | an unencrypted one changed or removed  | allowed            | refused (the MAC would break)      |
// | an unencrypted one added               | allowed            | only labels, annotations, namespace: listed in the `gitfleet.io/sops-added` annotation, which the agent leaves out of the MAC |
import { locationKey, shouldBeEncrypted, sopsLeaves, type SopsLeaf } from './sops-leaves.js';
import type { SopsMetadata } from './sops-metadata.js';

/** The annotation listing the values the hub added to an encrypted document (JSON: a list of locations). */
export const sopsAddedAnnotation = 'gitfleet.io/sops-added';

export type SopsCopyCheck =
  | { ok: true; added: (string | number)[][] }
  /** Why the copy would not decrypt (no subject: the caller names the file and the overrider). */
  | { ok: false; error: string };

/** Returns whether an added value may be left out of a MAC over all values: labels, annotations, namespace. */
export function mayAddOutsideMac(location: readonly (string | number)[]): boolean {
  if (location[0] !== 'metadata' || location.length < 2) return false;
  if (location[1] === 'namespace') return location.length === 2;
  return (location[1] === 'labels' || location[1] === 'annotations') && location.length === 3;
}

/** Returns whether the copy still decrypts and verifies as the template did, and what it added. */
export function checkSopsCopy(opts: {
  template: Record<string, unknown>;
  copy: Record<string, unknown>;
  metadata: SopsMetadata;
}): SopsCopyCheck {
  const { rules, macOnlyEncrypted } = opts.metadata;
  const covered = (l: SopsLeaf) => !macOnlyEncrypted || shouldBeEncrypted(l.path, rules);
  const before = new Map(sopsLeaves(opts.template).map((l) => [locationKey(l.location), l]));
  const after = sopsLeaves(opts.copy);
  const seen = new Set<string>();
  const added: (string | number)[][] = [];
  for (const leaf of after) {
    const key = locationKey(leaf.location);
    seen.add(key);
    const was = before.get(key);
    const where = leaf.location.join('.');
    if (was === undefined) {
      if (shouldBeEncrypted(leaf.path, rules))
        return { ok: false, error: `adds ${where}, a value SOPS encrypts` };
      if (!macOnlyEncrypted && !mayAddOutsideMac(leaf.location))
        return { ok: false, error: `adds ${where}, which the file's MAC would have to cover${macHint}` };
      if (!macOnlyEncrypted) added.push([...leaf.location]);
    } else if (was.value !== leaf.value && covered(leaf)) {
      return { ok: false, error: changeError('changes', where, leaf, rules) };
    }
  }
  for (const [key, leaf] of before) {
    if (!seen.has(key) && covered(leaf))
      return { ok: false, error: changeError('removes', leaf.location.join('.'), leaf, rules) };
  }
  const order = (leaves: SopsLeaf[]) =>
    leaves
      .filter((l) => covered(l) && before.has(locationKey(l.location)))
      .map((l) => locationKey(l.location));
  if (order(after).join('\n') !== order([...before.values()]).join('\n'))
    return { ok: false, error: `reorders values the file's MAC covers` };
  return { ok: true, added };
}

const macHint = ' (make the file with sops --mac-only-encrypted to override its unencrypted fields)';

function changeError(verb: string, where: string, leaf: SopsLeaf, rules: SopsMetadata['rules']): string {
  return shouldBeEncrypted(leaf.path, rules)
    ? `${verb} ${where}, an encrypted value`
    : `${verb} ${where}, which the file's MAC covers${macHint}`;
}
