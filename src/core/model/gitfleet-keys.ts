/** Labels and annotations gitfleet writes on rendered objects; the agent relies on them. */
export const managedLabel = 'gitfleet.io/managed';
export const bindingAnnotation = 'gitfleet.io/binding';
export const policyAnnotation = 'gitfleet.io/policy';
export const sourceAnnotation = 'gitfleet.io/source';
export const requiredByAnnotation = 'gitfleet.io/required-by';
export const preserveAnnotation = 'gitfleet.io/preserve-on-deletion';
/** Karmada's per-object conflict resolution; a template's own annotation wins over its policy. */
export const conflictResolutionAnnotation = 'work.karmada.io/conflict-resolution';
/** Karmada's label that keeps member-side replicas (e.g. under an HPA). */
export const retainReplicasLabel = 'resourcetemplate.karmada.io/retain-replicas';
/** Karmada's label that stops a Namespace from being synced to every cluster. */
export const skipAutoPropagationLabel = 'namespace.karmada.io/skip-auto-propagation';
/** The Tenant a rendered object belongs to (core/tenancy); never taken from a template. */
export const tenantAnnotation = 'gitfleet.io/tenant';
/**
 * The identity the agent applies a tenant's object as (`system:serviceaccount:NS:NAME`), from its
 * Tenant's `impersonate`; never taken from a template.
 */
export const applyAsAnnotation = 'gitfleet.io/apply-as';
