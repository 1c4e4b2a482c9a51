export { type ClaimPath, formatClaimPath } from "./claim-path.js";
export { createDisclosure, createSalt, type Disclosure, digestDisclosure } from "./create-disclosure.js";
export { createSdJwtVcPresentation } from "./create-presentation.js";
export {
  type AppliedDisclosure,
  applyDisclosures,
  decodeDisclosure,
  type ProcessedSdJwtPayload,
  type SdJwtParts,
  splitSdJwt,
} from "./decode-sd-jwt.js";
export { issueSdJwtVc, LEGACY_SD_JWT_VC_TYP, REGISTERED_CLAIMS, SD_JWT_VC_TYP } from "./issue-sd-jwt-vc.js";
export { type DisclosableClaims, makeDisclosable } from "./make-disclosable.js";
export { computeSdHash } from "./sd-hash.js";
export { createSdJwtVcFormatter, type SdJwtVcFormatterOptions } from "./sd-jwt-vc-formatter.js";
export {
  KB_JWT_TYP,
  type KeyBindingExpectation,
  type VerifiedKeyBinding,
  verifyKeyBindingJwt,
} from "./verify-key-binding-jwt.js";
export { verifySdJwtVcPresentation } from "./verify-presentation.js";
export { type VerifiedSdJwtVc, verifySdJwtVc, verifySdJwtVcParts } from "./verify-sd-jwt-vc.js";
