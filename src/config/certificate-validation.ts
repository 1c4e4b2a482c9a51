import { z } from "zod";

// `certificateValidation` (reference §7: `{leeway}`), extended by credkit with the X.509 trust anchors a wallet or a
// verifier accepts remote certificate chains against (request objects of the x509_* client-id prefixes, registration
// certificates, verifier attestations). It is never part of the public configuration view.

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

export const certificateValidationSchema = z
  .strictObject({
    /** Seconds of clock skew tolerated on notBefore / notAfter (and on attestation iat/exp). */
    leeway: z.number().int().nonnegative().default(60),
    /**
     * Trusted root (or intermediate) certificates, PEM. A remote chain is trusted when it contains one of them or is
     * issued by one. Empty: no remote X.509 chain is trusted, so x509_* requests are refused.
     */
    trustAnchors: z
      .array(z.string().regex(PEM_CERTIFICATE, "must be a PEM certificate (-----BEGIN CERTIFICATE-----)"))
      .default(() => []),
    /**
     * Trusted registrars: the roots registration certificates in `verifier_info` must chain to. Absent: `trustAnchors`
     * serve for both. Set it to keep the two roles apart, so a registrar cannot vouch for a verifier's domain and an
     * access-certificate CA cannot register relying parties.
     */
    registrarTrustAnchors: z
      .array(z.string().regex(PEM_CERTIFICATE, "must be a PEM certificate (-----BEGIN CERTIFICATE-----)"))
      .optional(),
  })
  .default(() => ({ leeway: 60, trustAnchors: [] }));

export type CertificateValidationConfig = z.output<typeof certificateValidationSchema>;
