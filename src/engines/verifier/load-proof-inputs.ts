import type { CredentialSchema } from "../../domain/credential-schema.js";
import type { Proof } from "../../domain/proof.js";
import type { ProofInputSchema, ProofSchema } from "../../domain/proof-schema.js";
import { CredkitError } from "../../errors/credkit-error.js";
import type { StorageRepositories } from "../../ports/storage.js";

/** A proof request's schema with each proof input next to its credential schema (what a request is built from). */
export async function loadProofInputs(
  storage: StorageRepositories,
  proof: Proof,
): Promise<{ schema: ProofSchema; inputs: { input: ProofInputSchema; schema: CredentialSchema }[] }> {
  const schema = proof.proofSchemaId ? await storage.proofSchemas.get(proof.proofSchemaId) : undefined;
  if (!schema) throw new CredkitError("BR_0014", "proof schema not found");
  const inputs = [];
  for (const input of schema.proofInputSchemas) {
    const credentialSchema = await storage.credentialSchemas.get(input.credentialSchemaId);
    if (!credentialSchema) throw new CredkitError("BR_0006", `credential schema ${input.credentialSchemaId} not found`);
    inputs.push({ input, schema: credentialSchema });
  }
  return { schema, inputs };
}
