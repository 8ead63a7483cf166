// The names and labels Karmada gives what it makes for multi-cluster services, so a member
// cluster sees the same objects under gitfleet as under Karmada.
//
//   | object                          | name                          | kubernetes.io/service-name | endpointslice.kubernetes.io/managed-by        |
//   |---------------------------------|-------------------------------|----------------------------|-----------------------------------------------|
//   | Service derived from an import  | derived-<ServiceImport name>  |                            |                                               |
//   | EndpointSlice of an import      | imported-<cluster>-<slice>    | derived-<service>          | endpointslice-controller.karmada.io           |
//   | EndpointSlice of a CrossCluster | <cluster>-<slice>             | <service>                  | endpointslice-dispatch-controller.karmada.io  |
//
// Sources: pkg/util/names/names.go (GenerateDerivedServiceName, GenerateEndpointSliceName),
// pkg/controllers/mcs/endpointslice_controller.go (collectEndpointSliceFromWork's labels),
// pkg/controllers/multiclusterservice/endpointslice_dispatch_controller.go (ensureEndpointSliceWork:
// name, labels and the provision-cluster annotation), pkg/util/constants.go (the values).

export const serviceNameLabel = 'kubernetes.io/service-name';
export const managedByLabel = 'endpointslice.kubernetes.io/managed-by';
/** managed-by of the slices collected for a ServiceImport. */
export const importControllerValue = 'endpointslice-controller.karmada.io';
/** managed-by of the slices a MultiClusterService dispatches. */
export const dispatchControllerValue = 'endpointslice-dispatch-controller.karmada.io';
/**
 * The exporting cluster of a slice. Karmada sets it on dispatched slices; gitfleet sets it on
 * imported ones too, so a commit can say where its endpoints came from (the trailers).
 */
export const provisionClusterAnnotation = 'endpointslice.karmada.io/provision-cluster';

/** Returns the Service a ServiceImport derives (names.GenerateDerivedServiceName). */
export function derivedServiceName(serviceImport: string): string {
  return `derived-${serviceImport}`;
}

/** Returns the name of a slice collected for a ServiceImport (names.GenerateEndpointSliceName). */
export function importedSliceName(cluster: string, slice: string): string {
  return `imported-${cluster}-${slice}`;
}

/** Returns the name of a slice a MultiClusterService dispatches (ensureEndpointSliceWork). */
export function dispatchedSliceName(cluster: string, slice: string): string {
  return `${cluster}-${slice}`;
}
