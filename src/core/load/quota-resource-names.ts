// Which resource names a quota may hold, and which count in whole units: Kubernetes' rules
// (pkg/apis/core/validation ValidateResourceQuotaResourceName and ValidateResourceQuantityValue,
// pkg/apis/core/helper), as Karmada's FederatedResourceQuota webhook applies them
// (pkg/webhook/federatedresourcequota/validating.go validateResourceList, via pkg/util/lifted).
//
// | name                                   | rule                                                    |
// |----------------------------------------|---------------------------------------------------------|
// | any                                    | a qualified name (`[prefix/]name`)                      |
// | without `/`                            | a standard resource, and a standard quota resource (below); `hugepages-*` and `requests.hugepages-*` are both |
// | pods, services, secrets, … (integer)   | a whole number                                          |
// | an extended resource (`example.com/gpu`) | a whole number                                        |
import { checkQualifiedName } from './name-rules.js';

const QUOTA_OBJECT_COUNTS = [
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
];

const STANDARD_QUOTA = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  ...QUOTA_OBJECT_COUNTS,
]);

// Kubernetes' standardResources: the quota names, less `requests.storage`... plus `storage`.
const STANDARD = new Set([...STANDARD_QUOTA, 'storage']);

const INTEGER = new Set(QUOTA_OBJECT_COUNTS);

function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
}

/** Returns what is wrong with a resource name in a quota, each message as Kubernetes words it. */
export function checkQuotaResourceName(name: string): string[] {
  const bad = checkQualifiedName(name);
  if (bad !== undefined) return [bad];
  if (name.includes('/')) return [];
  const problems: string[] = [];
  if (!STANDARD.has(name) && !isHugePages(name))
    problems.push('must be a standard resource type or fully qualified');
  if (!STANDARD_QUOTA.has(name) && !isHugePages(name)) problems.push('must be a standard resource for quota');
  return problems;
}

/** Returns whether the resource counts in whole units (Kubernetes' IsIntegerResourceName). */
export function isIntegerResourceName(name: string): boolean {
  return INTEGER.has(name) || isExtendedResourceName(name);
}

// Kubernetes' IsExtendedResourceName: not native (no `/`, or `kubernetes.io/` in it), not
// `requests.`-prefixed, and a qualified name once prefixed with `requests.`.
function isExtendedResourceName(name: string): boolean {
  if (!name.includes('/') || name.includes('kubernetes.io/') || name.startsWith('requests.')) return false;
  return checkQualifiedName(`requests.${name}`) === undefined;
}
