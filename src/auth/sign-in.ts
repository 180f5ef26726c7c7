import { unauthorized } from '../errors.js';
import type { AppContext } from '../http/index.js';
import { dummyPasswordHash, verifyPassword } from '../shared/index.js';
import { findAdminByEmail, findStoreBySlug } from '../stores/index.js';
import { accountKey, type LoginThrottle } from './throttle.js';

export interface AdminClaims {
  storeId: string;
  adminId: string;
}

/**
 * An admin's sign-in, one for every door (POST /auth, the console's sign-in form): the same password check
 * and the same throttle state, so failures at one door count at the other.
 */
export interface SignIn {
  /** counts a sign-in request from `address`, whatever its body (429 past the limit) */
  request(address: string): Promise<void>;
  /** the admin for valid credentials; 429 while the account is throttled for `address`, else 401 */
  verify(address: string, storeSlug: string, email: string, password: string): Promise<AdminClaims>;
}

/** The admin for valid credentials, else null; always spends one password verification. */
async function checkCredentials(ctx: AppContext, slug: string, email: string, password: string): Promise<AdminClaims | null> {
  const store = await findStoreBySlug(ctx.db, slug);
  const admin = store ? await findAdminByEmail(ctx.db, store.id, email) : undefined;
  const valid = await verifyPassword(password, admin?.password_hash ?? (await dummyPasswordHash()));
  return store && admin && valid ? { storeId: store.id, adminId: admin.id } : null;
}

export function createSignIn(ctx: AppContext, throttle: LoginThrottle): SignIn {
  return {
    request: (address) => throttle.request(address),
    async verify(address, storeSlug, email, password) {
      const account = accountKey(storeSlug, email);
      await throttle.admit(address, account);
      const claims = await checkCredentials(ctx, storeSlug, email, password);
      if (!claims) {
        await throttle.failed(address, account);
        throw unauthorized('Invalid store, email or password');
      }
      await throttle.succeeded(address, account);
      return claims;
    },
  };
}
