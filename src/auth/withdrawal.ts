import type { Claims } from './jwt';

/** What "sign out everywhere" left on the user (src/domain/access/sign-out.ts). */
export interface SignOutMark {
  signedOutAt?: Date | null;
  /** The provider token that asked for the sign-out, when it was one (Claims.tokenId). */
  signedOutTokenId?: string | null;
}

/**
 * Whether a sign-out withdrew the credential: it was issued before the moment. The service's own
 * tokens say when to the millisecond. A provider's `iat` is usually a whole second, and a token of
 * the sign-out's own second may have come before it or after; such a token is refused only when
 * it is the one that asked for the sign-out, so a user sent straight back to sign in gets in (as
 * Keycloak's not-before and Firebase's token revocation, which also draw the line at the second).
 * A token without `iat` says nothing of when it was made and is refused after any sign-out.
 */
export function withdrawnBySignOut(mark: SignOutMark, claims: Claims): boolean {
  const out = mark.signedOutAt?.getTime();
  if (out === undefined) return false;
  if (claims.iat === undefined) return true;
  const issued = claims.iat * 1000;
  if (claims.tokenId === undefined || !Number.isInteger(claims.iat)) return issued < out;
  const second = Math.floor(out / 1000) * 1000;
  return issued < second || (issued === second && claims.tokenId === mark.signedOutTokenId);
}
