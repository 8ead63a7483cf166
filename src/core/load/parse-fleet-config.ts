// The FleetConfig: repo-level settings, at most one per fleet repo, anywhere in it.
//
//   apiVersion: gitfleet.io/v1alpha1
//   kind: FleetConfig
//   metadata:
//     name: fleet
//   spec:
//     paths:
//       include: ["apps/", "clusters/"]   # read only these (prefixes or globs, see path-patterns.ts); default: all
//       exclude: ["apps/legacy/**"]       # never read these; default: none
//     skippedNamespaces: ["kube-.*"]      # regexes, anchored (^…$), of namespaces never propagated; default: kube-.*
//     skippedApis: ["example.com/v1/Widget"]  # as Karmada's --skipped-propagating-apis, one token per item:
//                                         #   group | group/version | group/version/Kind[,Kind…] | v1/Kind (core)
//     branchPrefix: gitfleet/             # prefix of every ref gitfleet writes; a missing trailing '/' is added
//     guards:
//       maxDeleteFraction: 0.5            # refuse a render deleting more than this share of a cluster's objects…
//       minObjects: 10                    # …when the cluster has more than this many
//     allowNoExecuteTaintPolicy: false    # ClusterTaintPolicies may add NoExecute taints (Karmada's
//                                         #   --allow-no-execute-taint-policy); default false
//     statusRepositories:                 # where agents write status and heartbeats; default: the fleet repo
//       - name: status-a                  #   a DNS label, unique; the label gitfleet.io/status-repository names it
//         url: https://git.example.com/fleet-status-a.git   # an http(s) URL or a local path
//     renderRepositories:                 # where the hub writes cluster branches; default: the fleet repo
//       - name: render-a                  #   a DNS label, unique; the label gitfleet.io/render-repository names it
//         url: https://git.example.com/fleet-render-a.git   # an http(s) URL or a local path
//     sourceVerification:                 # which keys must sign the source commits (read-source-verification.ts)
//       mode: head                        #   head or strict; allowedSigners, openpgpKeys: paths of key files
//
// Every field is optional; absent ones take defaultFleetConfig() (src/core/model/fleet-config.ts).
// A field not listed above is refused, with the field it most likely meant, by the strict-field
// pass (schema/fleet-config.ts): a field read here must be added there too.
// Setting `skippedNamespaces` replaces the default list, as Karmada's flag does.
//
// The file that holds the FleetConfig is always read in full: its own include/exclude decide
// which *other* files are read. Files they drop are dropped before parsing, so their YAML errors
// do not count.
import { quoteText } from '../model/quote-text.js';
import { checkBranchPrefix, normalizeBranchPrefix } from '../model/ref-name.js';
import { defaultFleetConfig, type FleetConfig } from '../model/fleet-config.js';
import type { SourceLocation } from '../model/source-location.js';
import {
  itemPath,
  readBool,
  readMap,
  readNumber,
  readInt,
  readString,
  readStringList,
  type Issues,
} from './field-reader.js';
import { readRepositoryList } from './read-repository-list.js';
import { readSourceVerification } from './read-source-verification.js';

/** Returns the FleetConfig with defaults filled in, or the list of problems found in it. */
export function parseFleetConfig(doc: {
  object: Record<string, unknown>;
  source: SourceLocation;
  /** The branch the hub renders from, when known: the prefix may not put branches under it. */
  sourceBranch?: string;
}): { ok: true; config: FleetConfig } | { ok: false; issues: Issues } {
  const issues: Issues = [];
  const defaults = defaultFleetConfig();
  const spec = readMap(doc.object['spec'], 'spec', issues) ?? {};
  const paths = readMap(spec['paths'], 'spec.paths', issues) ?? {};
  const guards = readMap(spec['guards'], 'spec.guards', issues) ?? {};
  const config: FleetConfig = {
    include: readStringList(paths['include'], 'spec.paths.include', issues) ?? defaults.include,
    exclude: readStringList(paths['exclude'], 'spec.paths.exclude', issues) ?? defaults.exclude,
    skippedNamespaces:
      readRegexes(spec['skippedNamespaces'], 'spec.skippedNamespaces', issues) ?? defaults.skippedNamespaces,
    skippedApis: readSkippedApis(spec['skippedApis'], 'spec.skippedApis', issues) ?? defaults.skippedApis,
    branchPrefix:
      readBranchPrefix(spec['branchPrefix'], 'spec.branchPrefix', issues, doc.sourceBranch) ??
      defaults.branchPrefix,
    guards: {
      maxDeleteFraction:
        readFraction(guards['maxDeleteFraction'], 'spec.guards.maxDeleteFraction', issues) ??
        defaults.guards.maxDeleteFraction,
      minObjects:
        readCount(guards['minObjects'], 'spec.guards.minObjects', issues) ?? defaults.guards.minObjects,
    },
    source: doc.source,
  };
  if (readBool(spec['allowNoExecuteTaintPolicy'], 'spec.allowNoExecuteTaintPolicy', issues) === true)
    config.allowNoExecuteTaintPolicy = true;
  const statusRepositories = readRepositoryList(
    spec['statusRepositories'],
    'spec.statusRepositories',
    issues,
    'the agent --status-token-file',
  );
  if (statusRepositories && statusRepositories.length > 0) config.statusRepositories = statusRepositories;
  const renderRepositories = readRepositoryList(
    spec['renderRepositories'],
    'spec.renderRepositories',
    issues,
    'the hub --render-token-file and the agent --render-token-file',
  );
  if (renderRepositories && renderRepositories.length > 0) config.renderRepositories = renderRepositories;
  const verification = readSourceVerification(spec['sourceVerification'], 'spec.sourceVerification', issues);
  if (verification) config.sourceVerification = verification;
  return issues.length === 0 ? { ok: true, config } : { ok: false, issues };
}

function readRegexes(value: unknown, path: string, issues: Issues): string[] | undefined {
  const list = readStringList(value, path, issues);
  list?.forEach((source, i) => {
    try {
      new RegExp(`^(?:${source})$`);
    } catch (e) {
      issues.push({
        path: itemPath(path, i),
        message: `${quoteText(source)}: not a valid regular expression: ${String(e)}`,
      });
    }
  });
  return list;
}

// Karmada's SkippedResourceConfig.parseSingle (pkg/util/apigroup.go): at most two '/' per token.
function readSkippedApis(value: unknown, path: string, issues: Issues): string[] | undefined {
  const list = readStringList(value, path, issues);
  list?.forEach((token, i) => {
    const slashes = token.split('/').length - 1;
    if (
      token.trim() === '' ||
      slashes > 2 ||
      token.includes(';') ||
      token.split('/').some((part) => part === '')
    ) {
      issues.push({
        path: itemPath(path, i),
        message: `${quoteText(token)}: must be group, group/version or group/version/Kind[,Kind…] (one token per item)`,
      });
    }
  });
  return list;
}

// The hub's own rule (checkBranchPrefix), so validate passes exactly the prefixes the hub can use.
function readBranchPrefix(
  value: unknown,
  path: string,
  issues: Issues,
  sourceBranch: string | undefined,
): string | undefined {
  const text = readString(value, path, issues);
  if (text === undefined) return undefined;
  const bad =
    text === ''
      ? `"": must be a non-empty git branch prefix such as gitfleet/`
      : checkBranchPrefix(text, sourceBranch);
  if (bad) {
    issues.push({ path, message: bad });
    return undefined;
  }
  return normalizeBranchPrefix(text);
}

function readFraction(value: unknown, path: string, issues: Issues): number | undefined {
  const n = readNumber(value, path, issues);
  if (n !== undefined && (n < 0 || n > 1)) issues.push({ path, message: `${n}: must be between 0 and 1` });
  return n;
}

function readCount(value: unknown, path: string, issues: Issues): number | undefined {
  const n = readInt(value, path, issues);
  if (n !== undefined && n < 0) issues.push({ path, message: `${n}: must be 0 or more` });
  return n;
}
