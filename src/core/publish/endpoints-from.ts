import { load } from 'js-yaml';
import { isMap } from '../model/kube-object.js';
import {
  derivedServiceName,
  dispatchControllerValue,
  importControllerValue,
  managedByLabel,
  provisionClusterAnnotation,
  serviceNameLabel,
} from '../mcs/mcs-names.js';

/**
 * Returns, for the texts of the EndpointSlices a cluster commit adds, changes or removes, the
 * exporting clusters and Services their endpoints come from (`<cluster> <namespace>/<service>`,
 * sorted, once each): the Gitfleet-Endpoints-From trailers. Only the slices the hub makes
 * (core/mcs: managed-by Karmada's endpointslice or dispatch controller) count; anything else,
 * or a text that does not parse, names nothing.
 */
export function endpointsFromOf(texts: Iterable<string>): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    const from = endpointsFromText(text);
    if (from) found.add(from);
  }
  return [...found].sort();
}

function endpointsFromText(text: string): string | undefined {
  let object: unknown;
  try {
    object = load(text);
  } catch {
    return undefined;
  }
  if (!isMap(object) || object.kind !== 'EndpointSlice' || !isMap(object.metadata)) return undefined;
  const { labels, annotations, namespace } = object.metadata;
  if (!isMap(labels) || !isMap(annotations)) return undefined;
  const cluster = annotations[provisionClusterAnnotation];
  const service = labels[serviceNameLabel];
  if (typeof cluster !== 'string' || typeof service !== 'string') return undefined;
  const managedBy = labels[managedByLabel];
  // An imported slice belongs to derived-<name>: the trailer names the Service that was exported.
  const prefix = derivedServiceName('');
  const exported =
    managedBy === importControllerValue && service.startsWith(prefix)
      ? service.slice(prefix.length)
      : managedBy === dispatchControllerValue
        ? service
        : undefined;
  return exported === undefined ? undefined : `${cluster} ${String(namespace)}/${exported}`;
}
