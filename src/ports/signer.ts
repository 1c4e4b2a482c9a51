/** Signs with one key in the JOSE/COSE signature encoding of `alg` (private material stays in the key storage). */
export interface Signer {
  /** JOSE alg: EdDSA, ES256, ML-DSA-65 */
  readonly alg: string;
  /** header `kid`: a DID URL (`did:…#…`) or a JWKS key id */
  readonly kid?: string;
  sign(data: Uint8Array): Promise<Uint8Array>;
}
