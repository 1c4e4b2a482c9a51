import { type BitsPerStatus, getListFromStatusListJWT, StatusList } from "@sd-jwt/jwt-status-list";
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  createStatusList,
  createStatusListToken,
  decodeStatusList,
  encodeStatusList,
  getStatus,
  parseStatusListToken,
  STATUS_LIST_BITS,
  setStatus,
  TOKEN_STATUS,
} from "../../../../src/providers/revocation/token-status-list/index.js";
import { DRAFT_VECTOR_FILES, loadDraftVector } from "./draft-vectors.js";
import { es256Key } from "./es256.js";

const randomStatuses = (size: number, bits: number) =>
  Array.from({ length: size }, () => (Math.random() < 0.2 ? Math.floor(Math.random() * 2 ** bits) : 0));

describe("interop with @sd-jwt/jwt-status-list", () => {
  it.each(STATUS_LIST_BITS)("a %i-bit list we encode is read by StatusList.decompressStatusList", (bits) => {
    const size = 10_000; // a multiple of 8/bits, so both sides agree on the entry count
    const statuses = randomStatuses(size, bits);
    const list = createStatusList(size, bits);
    for (const [index, value] of statuses.entries()) setStatus(list, index, value);
    const { lst } = encodeStatusList(list);
    const theirs = StatusList.decompressStatusList(lst, bits as BitsPerStatus);
    expect(theirs.statusList).toEqual(statuses);
  });

  it.each(STATUS_LIST_BITS)("a %i-bit list it compresses is read by decodeStatusList", (bits) => {
    const size = 9_999; // not a multiple: its encoder zero-pads the last byte like ours
    const statuses = randomStatuses(size, bits);
    const lst = new StatusList([...statuses], bits as BitsPerStatus).compressStatusList();
    const ours = decodeStatusList({ bits, lst });
    const read = statuses.map((_, index) => getStatus(ours, index));
    expect(read).toEqual(statuses);
    for (let index = size; index < ours.size; index++) expect(getStatus(ours, index)).toBe(0);
  });

  it("both read the draft's Appendix C vectors the same way", () => {
    for (const file of DRAFT_VECTOR_FILES) {
      const vector = loadDraftVector(file);
      const theirs = StatusList.decompressStatusList(vector.lst, vector.bits);
      const ours = decodeStatusList({ bits: vector.bits, lst: vector.lst });
      for (const [index, value] of vector.statuses) {
        expect(theirs.getStatus(index)).toBe(value);
        expect(getStatus(ours, index)).toBe(value);
      }
    }
  });

  it("getListFromStatusListJWT reads a Status List Token we issue", async () => {
    const list = createStatusList(1024, 2);
    setStatus(list, 7, TOKEN_STATUS.INVALID);
    setStatus(list, 1000, TOKEN_STATUS.SUSPENDED);
    const { signer } = es256Key();
    const token = await createStatusListToken({
      subject: "https://issuer.example.com/status/1",
      list,
      issuedAt: new Date(),
      signer,
    });
    const theirs = getListFromStatusListJWT(token);
    expect(theirs.getBitsPerStatus()).toBe(2);
    expect(theirs.getStatus(7)).toBe(TOKEN_STATUS.INVALID);
    expect(theirs.getStatus(1000)).toBe(TOKEN_STATUS.SUSPENDED);
    expect(theirs.getStatus(8)).toBe(TOKEN_STATUS.VALID);
  });

  it("parseStatusListToken reads a token built with its list and signed by jose", async () => {
    const { privateKey, verifier } = es256Key();
    const statuses = randomStatuses(4096, 1);
    const theirs = new StatusList([...statuses], 1);
    const iat = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      sub: "https://issuer.example.com/status/2",
      iat,
      exp: iat + 3600,
      ttl: 300,
      status_list: { bits: 1, lst: theirs.compressStatusList() },
    })
      .setProtectedHeader({ alg: "ES256", typ: "statuslist+jwt", kid: "k" })
      .sign(privateKey);
    const parsed = await parseStatusListToken(token, {
      verifySignature: verifier,
      now: new Date(),
      leeway: 0,
      expectedSubject: "https://issuer.example.com/status/2",
    });
    expect(parsed.payload.ttl).toBe(300);
    expect(statuses.map((_, index) => getStatus(parsed.list, index))).toEqual(statuses);
  });
});
