import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { CredkitError } from "../../errors/credkit-error.js";

/** Seals short-lived protocol secrets (access tokens, ephemeral private keys) before they are stored. */
export interface SecretSealer {
  /** AES-256-GCM with `context` (e.g. the interaction id) as additional data: a sealed value only opens there */
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const PREFIX = "v1.";

/**
 * A sealer keyed by HKDF-SHA256 of the INTERNAL key-storage encryption key (a distinct key for this purpose); without
 * one, a random key for this process (sealed values then do not survive a restart, like the secrets they protect).
 */
export function createSecretSealer(encryptionKeyHex: string | undefined): SecretSealer {
  const master =
    encryptionKeyHex && /^[0-9a-fA-F]{64}$/.test(encryptionKeyHex)
      ? Buffer.from(encryptionKeyHex, "hex")
      : randomBytes(32);
  const key = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "credkit interaction secrets v1", 32));
  return {
    seal(plaintext, context) {
      const nonce = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, nonce);
      cipher.setAAD(Buffer.from(context));
      const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return PREFIX + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64url");
    },
    open(sealed, context) {
      try {
        if (!sealed.startsWith(PREFIX)) throw new Error("not sealed");
        const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
        const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(context));
        decipher.setAuthTag(raw.subarray(raw.length - 16));
        return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
      } catch {
        throw new CredkitError("BR_0039", "a stored secret could not be opened (wrong key or tampered data)");
      }
    },
  };
}
