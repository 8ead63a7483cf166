// Credentials never reach a message: URLs lose their user-info (`https://***@host/…`) and any
// known secret is masked wherever it appears, so an error from a library that quotes a URL or
// a header cannot leak a token into logs.

const urlWithCredentials = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]+@/gi;

/** Returns the URL with any user name and password replaced by `***`. */
export function redactUrl(url: string): string {
  return url.replace(urlWithCredentials, '$1***@');
}

/** Returns the text with credentials in URLs and every given secret (4 characters or more) masked. */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = redactUrl(text);
  for (const secret of secrets) {
    // Short strings would mask unrelated words; a real token is never that short.
    if (secret !== undefined && secret.length >= 4) out = out.split(secret).join('***');
  }
  return out;
}
