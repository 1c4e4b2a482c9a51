import { generateKeyPairSync, sign, verify, X509Certificate } from "node:crypto";
import type { DecodedJws, VerifierTrustOptions } from "../src/engines/holder/openid4vp/verifier-authentication.js";
import { authenticateCertificateRequest } from "../src/engines/holder/openid4vp/verifier-authentication.js";
import type { PublicJwk } from "../src/ports/key-algorithm.js";
import type { Signer } from "../src/ports/signer.js";
import { createJwsVerifier } from "../src/providers/jose/verify-jws-signature.js";
import { createKeyAlgorithms } from "../src/providers/key-algorithm/index.js";
import { issueCertificate, subjectPublicKeyInfoFromJwk, toX5c } from "../src/providers/x509/index.js";
import type { BenchRow } from "./bench-row.js";
import { measureOpsPerSec } from "./measure.js";

// X.509 work of the client-id prefixes: a wallet authenticating an x509_san_dns request object (x5c chain of leaf and
// intermediate under a trusted root, plus the request signature: three ES256 verifications), and a CA identifier
// issuing a certificate (ASN.1 build, one ES256 signature, and the check of the result against the issuer key).

function es256Signer(privateKey: ReturnType<typeof generateKeyPairSync>["privateKey"]): Signer {
  return {
    alg: "ES256",
    sign: async (data) => new Uint8Array(sign("sha256", data, { key: privateKey, dsaEncoding: "ieee-p1363" })),
  };
}

function newKey() {
  const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return { ...pair, jwk: pair.publicKey.export({ format: "jwk" }) as PublicJwk };
}

export async function benchX509(): Promise<BenchRow[]> {
  const now = new Date();
  const validity = { notBefore: new Date(now.getTime() - 3600_000), notAfter: new Date(now.getTime() + 86400_000) };
  const rootKey = newKey();
  const root = await issueCertificate(
    {
      subject: { commonName: "bench root" },
      subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(rootKey.jwk),
      ...validity,
      extensions: { ca: true, keyUsage: ["keyCertSign", "crlSign"] },
    },
    es256Signer(rootKey.privateKey),
  );
  const intermediateKey = newKey();
  const intermediate = await issueCertificate(
    {
      subject: { commonName: "bench intermediate" },
      subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(intermediateKey.jwk),
      ...validity,
      extensions: { ca: true, keyUsage: ["keyCertSign"] },
    },
    es256Signer(rootKey.privateKey),
    root,
  );
  const leafKey = newKey();
  const leafTemplate = {
    subject: { commonName: "verifier.example" },
    subjectPublicKeyInfo: subjectPublicKeyInfoFromJwk(leafKey.jwk),
    ...validity,
    extensions: { ca: false, keyUsage: ["digitalSignature"] as const },
  };
  const leaf = await issueCertificate(leafTemplate, es256Signer(intermediateKey.privateKey), intermediate);
  // x509_hash needs no SAN: the client identifier is the leaf's hash
  const clientIdValue = new X509Certificate(leaf.raw).fingerprint256;
  const header = { alg: "ES256", typ: "oauth-authz-req+jwt", x5c: toX5c([leaf, intermediate]) };
  const payload = { client_id: "x509_hash:…", response_uri: "https://verifier.example/response", nonce: "n" };
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const signingInput = Buffer.from(`${encode(header)}.${encode(payload)}`, "latin1");
  const signature = sign("sha256", signingInput, { key: leafKey.privateKey, dsaEncoding: "ieee-p1363" });
  const hash = Buffer.from(clientIdValue.replace(/:/g, ""), "hex").toString("base64url");
  const options: VerifierTrustOptions = {
    trustAnchors: [root],
    leeway: 60,
    now,
    jwsVerifier: createJwsVerifier(createKeyAlgorithms()),
  };
  const decoded: DecodedJws = { header, payload, signingInput, signature };
  const authenticate = () => authenticateCertificateRequest(decoded, "x509_hash", hash, options);
  authenticate(); // throws if the setup is wrong

  const tbs = Buffer.from("x".repeat(400));
  const rawSignature = sign("sha256", tbs, { key: rootKey.privateKey, dsaEncoding: "ieee-p1363" });
  const rawVerify = () =>
    verify("sha256", tbs, { key: rootKey.publicKey, dsaEncoding: "ieee-p1363" }, rawSignature) as unknown;
  const threeVerifies = () => {
    rawVerify();
    rawVerify();
    rawVerify();
  };
  const signAndVerify = () => {
    const s = sign("sha256", tbs, { key: rootKey.privateKey, dsaEncoding: "ieee-p1363" });
    verify("sha256", tbs, { key: rootKey.publicKey, dsaEncoding: "ieee-p1363" }, s);
  };
  const issuer = es256Signer(intermediateKey.privateKey);

  const authenticated = await measureOpsPerSec(authenticate);
  const threeFloor = await measureOpsPerSec(threeVerifies);
  const issued = await measureOpsPerSec(() => issueCertificate(leafTemplate, issuer, intermediate));
  const issueFloor = await measureOpsPerSec(signAndVerify);
  return [
    {
      name: "wallet: x509_hash request object authenticated (x5c chain of 2 + signature)",
      opsPerSec: authenticated,
      baselineOpsPerSec: threeFloor,
      ratio: authenticated / threeFloor,
    },
    {
      name: "CA identifier: certificate issued (ASN.1 + ES256 sign + check)",
      opsPerSec: issued,
      baselineOpsPerSec: issueFloor,
      ratio: issued / issueFloor,
    },
  ];
}
