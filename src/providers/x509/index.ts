export {
  certificateHash,
  parsePemChain,
  parseX5c,
  subjectAltNames,
  toPemChain,
  toX5c,
} from "./parse-certificates.js";
export {
  type ChainValidation,
  type ChainValidationOptions,
  checkValidityPeriod,
  notAfter,
  notBefore,
  validateCertificateChain,
} from "./validate-chain.js";
