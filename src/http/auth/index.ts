export {
  type AuthContext,
  AuthenticationError,
  type Authenticator,
  type AuthenticatorOptions,
  type AuthMode,
  bearerToken,
  createAuthenticator,
  type HttpAuthConfig,
  type StsTokenValidation,
} from "./authenticate.js";
export { hasPermission, requirePermission, resolveOrganisationId } from "./authorize.js";
export {
  createJwksCache,
  type JwksCache,
  type JwksCacheOptions,
  JwksError,
  STS_ALGORITHMS,
  type StsAlgorithm,
} from "./jwks-cache.js";
export { isPermission, PERMISSIONS, type Permission, WALLET_INSTANCE_PERMISSIONS } from "./permissions.js";
