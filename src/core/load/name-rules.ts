// Kubernetes' name and label syntax (k8s.io/apimachinery/pkg/util/validation), which Karmada
// uses for object names, cluster names, label keys and values. Each regex is compiled once.

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME_PART = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** Returns the problem with a DNS-1123 label (≤ `max` chars, lowercase alnum and '-'), or undefined. */
export function checkDns1123Label(value: string, max = 63): string | undefined {
  if (value.length > max) return `must be no more than ${max} characters`;
  if (!DNS1123_LABEL.test(value)) {
    return "must be a lowercase RFC 1123 label: lowercase alphanumerics or '-', starting and ending with an alphanumeric";
  }
  return undefined;
}

/** Returns the problem with a DNS-1035 label (≤ 63 chars, lowercase alnum and '-', starting with a letter), or undefined. */
export function checkDns1035Label(value: string): string | undefined {
  if (value.length > 63) return 'must be no more than 63 characters';
  if (!DNS1035_LABEL.test(value)) {
    return "must be a DNS-1035 label: lowercase alphanumerics or '-', starting with a letter and ending with an alphanumeric";
  }
  return undefined;
}

/** Returns the problem with a ConfigMap or Secret key (Kubernetes' IsConfigMapKey), or undefined. */
export function checkConfigMapKey(value: string): string | undefined {
  if (value.length === 0) return 'must be non-empty';
  if (value.length > 253) return 'must be no more than 253 characters';
  if (!CONFIG_MAP_KEY.test(value)) return "must consist of alphanumerics, '-', '_' or '.'";
  if (value === '.' || value === '..') return `may not be '${value}'`;
  if (value.startsWith('..')) return "may not start with '..'";
  return undefined;
}

/** Returns the problem with a DNS-1123 subdomain (≤ 253 chars, dot-separated labels), or undefined. */
export function checkDns1123Subdomain(value: string): string | undefined {
  if (value.length > 253) return 'must be no more than 253 characters';
  if (!DNS1123_SUBDOMAIN.test(value)) {
    return "must be a lowercase RFC 1123 subdomain: lowercase alphanumerics, '-' or '.', starting and ending with an alphanumeric";
  }
  return undefined;
}

/**
 * Returns the problem with a path-segment name (Kubernetes' ValidatePathSegmentName, used by the
 * RBAC kinds): not `.` or `..`, no `/` or `%`; we also refuse control characters and cap the length
 * at 253 so the name stays one safe file name in the output layout.
 */
export function checkPathSegmentName(value: string): string | undefined {
  if (value === '.' || value === '..') return `may not be '${value}'`;
  if (value.includes('/') || value.includes('%')) return "may not contain '/' or '%'";
  if (hasControlCharacter(value)) return 'may not contain control characters';
  if (value.length > 253) return 'must be no more than 253 characters';
  return undefined;
}

/** Returns the problem with a qualified name (label or annotation key: `[prefix/]name`), or undefined. */
export function checkQualifiedName(value: string): string | undefined {
  const slash = value.indexOf('/');
  const name = slash < 0 ? value : value.slice(slash + 1);
  if (slash >= 0) {
    const prefix = value.slice(0, slash);
    if (prefix.length === 0) return 'prefix part must be non-empty';
    const bad = checkDns1123Subdomain(prefix);
    if (bad) return `prefix part ${bad}`;
  }
  if (name.length === 0) return 'name part must be non-empty';
  if (name.length > 63) return 'name part must be no more than 63 characters';
  if (!QUALIFIED_NAME_PART.test(name)) {
    return "name part must consist of alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric";
  }
  return undefined;
}

/** Returns the problem with a label value (empty, or ≤ 63 chars of alnum, '-', '_', '.'), or undefined. */
export function checkLabelValue(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > 63) return 'must be no more than 63 characters';
  if (!QUALIFIED_NAME_PART.test(value)) {
    return "must consist of alphanumerics, '-', '_' or '.', starting and ending with an alphanumeric";
  }
  return undefined;
}

// Control characters never belong in a name that becomes a file name in the output layout.
function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}
