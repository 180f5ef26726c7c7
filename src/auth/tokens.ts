import { errors, jwtVerify, SignJWT } from 'jose';

export interface AccessClaims {
  storeId: string;
  adminId: string;
}

/** Why a token was refused; each reason has its own 401 message. */
export type TokenRejection = 'malformed' | 'expired' | 'signature';

const ISSUER = 'storefront';

function keyOf(secret: string): Uint8Array {
  return new TextEncoder().encode(secret);
}

export async function issueAccessToken(claims: AccessClaims, secret: string, ttlSeconds: number): Promise<string> {
  return new SignJWT({ store: claims.storeId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.adminId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(`${ttlSeconds}s`)
    .sign(keyOf(secret));
}

function rejectionOf(error: unknown): TokenRejection {
  if (error instanceof errors.JWTExpired) return 'expired';
  // Signed with another key, or not signed with HS256 at all (`alg: none`): not a token of ours. jose checks
  // the signature before the claims, so an expired token with a bad signature is a bad signature.
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JOSEAlgNotAllowed) return 'signature';
  return 'malformed';
}

/**
 * The claims of a token signed with our secret, unexpired, with `exp`, `sub` and `store`; else why not.
 * A token without `exp` would be valid forever, so it is refused (CONTRACT §4).
 */
export async function verifyAccessToken(token: string, secret: string): Promise<AccessClaims | TokenRejection> {
  try {
    const { payload } = await jwtVerify(token, keyOf(secret), { algorithms: ['HS256'], issuer: ISSUER, requiredClaims: ['exp'] });
    if (typeof payload.store !== 'string' || typeof payload.sub !== 'string') return 'malformed';
    return { storeId: payload.store, adminId: payload.sub };
  } catch (error) {
    return rejectionOf(error);
  }
}
