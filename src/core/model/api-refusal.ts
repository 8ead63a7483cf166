// What a Kubernetes API server said when it refused a request: the parts of its Status that the
// apply plan classifies (core/apply-plan/classify-apply-error.ts), that the kube adapter reads
// from an answer (adapters/kube/kube-error.ts) and that the agent reports, secrets redacted.

/** The parts of a Kubernetes Status the classification reads. */
export interface ApiRefusal {
  /** HTTP status; 0 when there was no answer. */
  code: number;
  reason?: string;
  message: string;
  causes?: readonly { type?: string; message?: string; field?: string }[];
}
