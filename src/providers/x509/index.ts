export { type CertificateTemplate, issueCertificate } from "./build-certificate.js";
export { type CsrTemplate, createCertificationRequest, toPem } from "./build-csr.js";
export {
  DISTINGUISHED_NAME_ATTRIBUTES,
  type DistinguishedName,
  isEmptyDistinguishedName,
  toAsnName,
} from "./distinguished-name.js";
export {
  certificateHash,
  DNS_NAME,
  parsePemChain,
  parseX5c,
  subjectAltNames,
  toPemChain,
  toX5c,
} from "./parse-certificates.js";
export {
  certificatePublicJwk,
  keyIdentifier,
  samePublicJwk,
  subjectPublicKeyInfoFromJwk,
} from "./public-key-info.js";
export {
  type ChainValidation,
  type ChainValidationOptions,
  checkValidityPeriod,
  notAfter,
  notBefore,
  validateCertificateChain,
} from "./validate-chain.js";
export { type OwnChainOptions, type OwnChainValidity, validateOwnChain } from "./validate-own-chain.js";
export {
  certificateKeyUsage,
  formatName,
  subjectCommonName,
  type X509Attributes,
  type X509ExtensionAttributes,
  x509Attributes,
} from "./x509-attributes.js";
export {
  buildExtensions,
  EKU_MDL_DOCUMENT_SIGNER,
  type ExtensionsSpec,
  KEY_USAGE_NAMES,
  type KeyUsageName,
} from "./x509-extensions.js";
export { signX509, X509_SIGNING_ALGORITHMS, x509SignatureAlgorithm } from "./x509-signature.js";
