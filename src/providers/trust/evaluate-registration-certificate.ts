import type { X509Certificate } from "node:crypto";
import { isCredkitError } from "../../errors/credkit-error.js";
import { validateCertificateChain } from "../x509/index.js";
import {
  decodeRegistrationCertificate,
  parseRegistrationCertificateClaims,
  type RegistrationCertificateClaims,
  registrationCertificateValidity,
  subjectIdentifiers,
  verifyRegistrationCertificateSignature,
} from "./registration-certificate.js";

export interface RegistrationCertificateTrustOptions {
  now: Date;
  /** seconds of clock skew on exp / nbf / iat and on the certificates' validity (`certificateValidation.leeway`) */
  leeway: number;
  /** trusted registrar roots or intermediates (`certificateValidation.trustAnchors`) */
  trustAnchors: readonly X509Certificate[];
  /**
   * identifiers the relying party was authenticated with (the organizationIdentifier / serialNumber of its access
   * certificate): when given, the registration certificate's `sub.id` must name one of them (ETSI TS 119 475 binds a
   * registration certificate to the access certificate of the same relying party)
   */
  boundIdentifiers?: readonly string[];
}

export interface RegistrationCertificateEvaluation {
  result: "TRUSTED" | "UNTRUSTED";
  /** the first check that failed */
  reason?: string;
  /** the decoded payload, whenever it is JSON */
  payload?: Record<string, unknown>;
  /** the ETSI claims, when the payload is a registration certificate */
  claims?: RegistrationCertificateClaims;
  validFrom?: Date;
  validTo?: Date;
  /** subject DN of the signing (x5c leaf) certificate */
  signer?: string;
  /** subject DN of the trust anchor the chain leads to */
  trustAnchor?: string;
}

function detailOf(error: unknown): string {
  if (isCredkitError(error)) return error.detail ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

function dn(certificate: X509Certificate): string {
  return certificate.subject.replace(/\n/g, ", ");
}

/**
 * The wallet's verdict on a registration certificate received in `verifier_info` (OpenID4VP 1.0 §5.1: "If the Wallet
 * uses information from verifier_info, the Wallet MUST validate the signature and ensure binding"). TRUSTED when it is
 * a well-formed ETSI TS 119 475 certificate (`typ` rc-wrp+jwt, the claims the trust detail shows), signed by the first
 * certificate of its `x5c`, inside its validity (`nbf`/`iat`/`exp` with leeway), with a chain that validates up to a
 * configured trust anchor and, when the verifier was authenticated by an access certificate, naming the same relying
 * party. Anything else is UNTRUSTED with the reason of the first failed check — never an exception.
 */
export function evaluateRegistrationCertificate(
  jwt: string,
  options: RegistrationCertificateTrustOptions,
): RegistrationCertificateEvaluation {
  let payload: Record<string, unknown> | undefined;
  let validity: { validFrom?: Date; validTo?: Date } = {};
  let signer: string | undefined;
  const untrusted = (reason: string, extra: Partial<RegistrationCertificateEvaluation> = {}) => ({
    result: "UNTRUSTED" as const,
    reason,
    ...(payload !== undefined && { payload }),
    ...validity,
    ...(signer !== undefined && { signer }),
    ...extra,
  });

  let chain: X509Certificate[];
  let claims: RegistrationCertificateClaims;
  try {
    const decoded = decodeRegistrationCertificate(jwt);
    payload = decoded.payload;
    validity = registrationCertificateValidity(decoded.payload);
    chain = verifyRegistrationCertificateSignature(decoded);
    signer = dn(chain[0]!);
    claims = parseRegistrationCertificateClaims(decoded.payload);
  } catch (error) {
    return untrusted(detailOf(error));
  }

  const now = options.now.getTime();
  const skew = options.leeway * 1000;
  if (validity.validTo !== undefined && validity.validTo.getTime() + skew < now) {
    return untrusted(`the registration certificate expired at ${validity.validTo.toISOString()}`, { claims });
  }
  if (typeof claims.nbf === "number" && claims.nbf * 1000 - skew > now) {
    return untrusted(`the registration certificate is not valid before ${new Date(claims.nbf * 1000).toISOString()}`, {
      claims,
    });
  }
  if (typeof claims.iat === "number" && claims.iat * 1000 - skew > now) {
    return untrusted(
      `the registration certificate is issued in the future (iat ${new Date(claims.iat * 1000).toISOString()})`,
      {
        claims,
      },
    );
  }

  let trustAnchor: string | undefined;
  try {
    const validation = validateCertificateChain(chain, {
      now: options.now,
      leeway: options.leeway,
      trustAnchors: options.trustAnchors,
    });
    if (!validation.trusted) {
      return untrusted(
        `the registration certificate's x5c chain does not lead to a trusted registrar (certificateValidation.registrarTrustAnchors, else trustAnchors)`,
        { claims },
      );
    }
    trustAnchor = validation.anchor ? dn(validation.anchor) : undefined;
  } catch (error) {
    return untrusted(`the registration certificate's x5c chain is not valid: ${detailOf(error)}`, { claims });
  }

  const bound = options.boundIdentifiers ?? [];
  if (bound.length > 0) {
    const named = subjectIdentifiers(claims);
    if (!named.some((identifier) => bound.includes(identifier))) {
      return untrusted(
        `the registration certificate names ${named.map((v) => JSON.stringify(v)).join(", ")}, not the relying party that signed the request (${bound.map((v) => JSON.stringify(v)).join(", ")})`,
        { claims, ...(trustAnchor !== undefined && { trustAnchor }) },
      );
    }
  }
  return {
    result: "TRUSTED",
    payload: payload!,
    claims,
    ...validity,
    ...(signer !== undefined && { signer }),
    ...(trustAnchor !== undefined && { trustAnchor }),
  };
}
