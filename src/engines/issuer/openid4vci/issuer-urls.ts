/** URLs of credkit's OpenID4VCI 1.0 issuer (reference §4.1, final-1.0 column). */
export function issuerUrls(baseUrl: string, protocolId: string, schemaId: string) {
  const credentialIssuer = `${baseUrl}/ssi/openid4vci/final-1.0/${protocolId}/${schemaId}`;
  const origin = new URL(baseUrl).origin;
  const issuerPath = new URL(credentialIssuer).pathname;
  return {
    credentialIssuer,
    /** RFC 8615 insertion: https://host/.well-known/openid-credential-issuer/<issuer path> */
    issuerMetadata: `${origin}/.well-known/openid-credential-issuer${issuerPath}`,
    authorizationServerMetadata: `${origin}/.well-known/oauth-authorization-server${issuerPath}`,
    token: `${baseUrl}/ssi/openid4vci/final-1.0/${schemaId}/token`,
    credential: `${baseUrl}/ssi/openid4vci/final-1.0/${schemaId}/credential`,
    notification: `${baseUrl}/ssi/openid4vci/final-1.0/${schemaId}/notification`,
    nonce: `${baseUrl}/ssi/openid4vci/final-1.0/${protocolId}/nonce`,
    offer: (credentialId: string) => `${baseUrl}/ssi/openid4vci/final-1.0/${schemaId}/offer/${credentialId}`,
  };
}

/** `iss` of credentials issued by a KEY identifier: its jwt-vc-issuer metadata lives under /.well-known (spec §4.3). */
export function keyIssuerUrl(baseUrl: string, protocolId: string, identifierId: string, schemaId: string): string {
  return `${baseUrl}/ssi/openid4vci/${protocolId}/${identifierId}/${schemaId}`;
}
