/** The public surface of src/auth: what other folders may import. */
export { registerAuthRoutes } from './auth.routes.js';
export { watchCredentials } from './credential-cache.js';
export { createCredentialGuard } from './credential-guard.js';
export { authenticate } from './credentials.js';
export { registerRateLimit, storeRateLimit } from './rate-limit.js';
export { connectRedis } from './redis-link.js';
export { type AdminClaims, createSignIn, type SignIn } from './sign-in.js';
export { createLoginThrottle } from './throttle.js';
export { issueAccessToken } from './tokens.js';
export { rememberWritePositions } from './write-positions.js';
