/** Loopback hardening shared by the MCP endpoint and the web bridge: tokens, Host and Origin checks. */
export { generateToken, tokensEqual, isAllowedHost, isAllowedOrigin, bearerToken } from './tokens';
export { loadOrCreateSecret } from './storedSecret';
export { identityKeyOf, identityProof, checkServerIdentity, IDENTITY_PATH, IDENTITY_NONCE, IDENTITY_LABEL } from './serverIdentity';
