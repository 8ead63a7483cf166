// One EndpointSlice of an exported Service as an exporting cluster reports it on its status
// branch: only what a consumer needs, canonical (sorted) so an unchanged slice is unchanged text.
export interface ExportedSlice {
  /** The exporting cluster. */
  cluster: string;
  namespace: string;
  /** The exported Service (the slice's kubernetes.io/service-name label). */
  service: string;
  /** The EndpointSlice's own name in the exporting cluster. */
  name: string;
  addressType: string;
  /** Sorted by their first address. */
  endpoints: ExportedEndpoint[];
  /** Sorted by name, then port. */
  ports: ExportedPort[];
}
export interface ExportedEndpoint {
  addresses: string[];
  conditions: { ready?: boolean; serving?: boolean; terminating?: boolean };
}
export interface ExportedPort {
  name?: string;
  port?: number;
  protocol?: string;
  appProtocol?: string;
}
