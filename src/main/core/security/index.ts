/** Loopback hardening shared by the MCP endpoint and the web bridge: tokens, Host and Origin checks. */
export { generateToken, tokensEqual, isAllowedHost, isAllowedOrigin, bearerToken } from './tokens';
export { loadOrCreateSecret } from './storedSecret';
export { identityKeyOf, identityProof, serverProvesIdentity, IDENTITY_PATH, IDENTITY_NONCE } from './serverIdentity';
