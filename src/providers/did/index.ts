export { buildDidDocument, JWS_2020_CONTEXT, type VerificationMethodInput } from "./build-did-document.js";
export { createJwkDidMethod, type JwkDidMethodOptions } from "./jwk.js";
export { createKeyDidMethod, type KeyDidMethodOptions } from "./key.js";
export { type ParsedDid, parseDid, parseDidOfMethod } from "./parse-did.js";
export { requireSingleKey } from "./single-key.js";
export { createWebDidMethod, type DidDocumentLoader, type WebDidMethod, type WebDidMethodOptions } from "./web.js";
