import type { KeyStorageSecurityLevel, LayoutType, TransactionCodeType } from "./enums.js";

export interface ClaimSchema {
  id: string;
  /** key of this node (no slash); the full path is the slash-joined keys from the root */
  key: string;
  /** datatype config instance name (STRING, NUMBER, DATE, BOOLEAN, PICTURE, OBJECT, ARRAY, BIRTH_DATE ...) */
  datatype: string;
  required: boolean;
  array: boolean;
  claims: ClaimSchema[];
  createdDate: Date;
  lastModified: Date;
}

export interface LayoutProperties {
  background?: { color?: string; image?: string };
  logo?: { fontColor?: string; backgroundColor?: string; image?: string };
  primaryAttribute?: string;
  secondaryAttribute?: string;
  pictureAttribute?: string;
  code?: { attribute: string; type: "BARCODE" | "MRZ" | "QR_CODE" };
}

export interface TransactionCodeSettings {
  type: TransactionCodeType;
  length: number;
  description?: string;
}

export interface CredentialSchema {
  id: string;
  organisationId: string;
  name: string;
  /** format config instance name (SD_JWT_VC, MDOC ...) */
  format: string;
  /** revocation config instance name, absent for no revocation */
  revocationMethod?: string;
  /** vct for SD-JWT VC, doctype for mdoc */
  schemaId: string;
  importedSourceUrl: string;
  claims: ClaimSchema[];
  keyStorageSecurity?: KeyStorageSecurityLevel;
  layoutType?: LayoutType;
  layoutProperties?: LayoutProperties;
  allowSuspension: boolean;
  requiresWalletInstanceAttestation: boolean;
  transactionCode?: TransactionCodeSettings;
  createdDate: Date;
  lastModified: Date;
  deletedAt?: Date;
}
