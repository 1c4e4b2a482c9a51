/** A token status list (draft-ietf-oauth-status-list) of one issuer identifier; entries live in revocation_entry. */
export interface RevocationList {
  id: string;
  organisationId: string;
  issuerIdentifierId: string;
  /** revocation config instance name (TOKENSTATUSLIST) */
  revocationMethod: string;
  /** bits per status: credkit uses 2 (valid, revoked, suspended) */
  bits: number;
  /** number of entries */
  size: number;
  /** entries handed out so far (kept in the same transaction as each allocation) */
  allocated: number;
  createdDate: Date;
  lastModified: Date;
}

/** One allocated index of a list; id = `${listId}:${index}` so allocation is unique under concurrency. */
export interface RevocationEntry {
  id: string;
  listId: string;
  index: number;
  credentialId: string;
  /** 0 valid, 1 revoked, 2 suspended */
  status: number;
  createdDate: Date;
  lastModified: Date;
}

/** A single-use server nonce (OpenID4VCI c_nonce, OpenID4VP nonce). */
export interface Nonce {
  id: string;
  /** protocol instance that issued it */
  protocol: string;
  expiresAt: Date;
  usedAt?: Date;
  createdDate: Date;
  lastModified: Date;
}
