import type { DidDocument, DidVerificationMethod } from "../../domain/did.js";
import type { DidKeyRole } from "../../domain/enums.js";
import type { PublicJwk } from "../../ports/key-algorithm.js";

/** `@context` of documents whose verification methods are JsonWebKey2020 (W3C CCG JWS 2020 suite). */
export const JWS_2020_CONTEXT = ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/suites/jws-2020/v1"];

/** DID Core §5.3 verification relationships, by credkit key role. */
export const VERIFICATION_RELATIONSHIPS = {
  AUTHENTICATION: "authentication",
  ASSERTION_METHOD: "assertionMethod",
  KEY_AGREEMENT: "keyAgreement",
  CAPABILITY_INVOCATION: "capabilityInvocation",
  CAPABILITY_DELEGATION: "capabilityDelegation",
} as const satisfies Record<DidKeyRole, string>;

export interface VerificationMethodInput {
  /** fragment without "#", e.g. "0", "key-0" or a multibase key */
  fragment: string;
  publicKeyJwk: PublicJwk;
  /** relationships the method is referenced from */
  roles: readonly DidKeyRole[];
}

/**
 * A DID document (DID Core §5) whose verification methods are JsonWebKey2020 entries `<did>#<fragment>` referenced by
 * id from each verification relationship. Relationships nobody uses are left out.
 */
export function buildDidDocument(did: string, methods: readonly VerificationMethodInput[]): DidDocument {
  const document: DidDocument = { "@context": [...JWS_2020_CONTEXT], id: did, verificationMethod: [] };
  for (const method of methods) {
    const id = `${did}#${method.fragment}`;
    const verificationMethod: DidVerificationMethod = {
      id,
      type: "JsonWebKey2020",
      controller: did,
      publicKeyJwk: { ...method.publicKeyJwk },
    };
    document.verificationMethod.push(verificationMethod);
    for (const role of method.roles) {
      const relationship = VERIFICATION_RELATIONSHIPS[role];
      const references = document[relationship] ?? [];
      if (!references.includes(id)) references.push(id);
      document[relationship] = references;
    }
  }
  return document;
}
