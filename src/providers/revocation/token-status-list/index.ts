/**
 * Token Status List (draft-ietf-oauth-status-list): the status list byte array (§4.1), its JSON encoding (§4.2),
 * Status List Tokens in JWT format (§5.1), Referenced Token references (§6.2) and status values (§7.1).
 */
export { type DecodeStatusListOptions, decodeStatusList, decompressStatusList } from "./decode-status-list.js";
export { compressStatusList, type EncodedStatusList, encodeStatusList } from "./encode-status-list.js";
export {
  createStatusList,
  getStatus,
  isStatusListBits,
  MAX_STATUS_LIST_BYTES,
  maxStatusValue,
  STATUS_LIST_BITS,
  type StatusList,
  type StatusListBits,
  setStatus,
  statusListFromBytes,
} from "./status-list.js";
export {
  type CreateStatusListTokenInput,
  createStatusListToken,
  type ParsedStatusListToken,
  type ParseStatusListTokenOptions,
  parseStatusListToken,
  STATUS_LIST_JWT_TYP,
  type StatusListTokenHeader,
  type StatusListTokenPayload,
  type StatusListTokenSignatureVerifier,
} from "./status-list-token.js";
export { createStatusClaim, parseStatusClaim, type StatusListReference } from "./status-reference.js";
export {
  allocateRandomIndex,
  CREDKIT_STATUS_LIST_BITS,
  describeTokenStatus,
  TOKEN_STATUS,
  type TokenStatus,
  type TokenStatusName,
} from "./status-values.js";
