// The identity the hub signs its commits with (author and committer) unless told otherwise;
// the agent honours a deletion allowance only on a commit carrying it (judge-deletion-allowance.ts).

/** The hub's default commit identity. */
export const defaultHubIdentity: { readonly name: string; readonly email: string } = {
  name: 'gitfleet',
  email: 'hub@gitfleet.invalid',
};
