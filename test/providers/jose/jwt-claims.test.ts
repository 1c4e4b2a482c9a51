import { describe, expect, it } from "vitest";
import { checkJwtTimes, numericDateOf } from "../../../src/providers/jose/jwt-claims.js";
import { expectCredkitError } from "./test-keys.js";

const now = new Date("2026-01-01T00:00:00.000Z");
const t = numericDateOf(now);

describe("checkJwtTimes", () => {
  it("accepts a token inside its window and one without time claims", () => {
    checkJwtTimes({ iat: t - 10, nbf: t - 10, exp: t + 10 }, now, 0);
    checkJwtTimes({}, now, 0);
  });

  it("rejects an expired token with the expiry time in the detail, within leeway it passes", async () => {
    await expectCredkitError(
      () => checkJwtTimes({ exp: t - 30 }, now, 10, "credential"),
      "BR_0355",
      "credential expired at 2025-12-31T23:59:30.000Z",
    );
    await expectCredkitError(() => checkJwtTimes({ exp: t }, now, 0), "BR_0355", "expired");
    checkJwtTimes({ exp: t - 30 }, now, 60);
  });

  it("rejects nbf in the future and iat in the future beyond leeway", async () => {
    await expectCredkitError(() => checkJwtTimes({ nbf: t + 120 }, now, 60), "BR_0355", "not valid before");
    checkJwtTimes({ nbf: t + 30 }, now, 60);
    await expectCredkitError(() => checkJwtTimes({ iat: t + 120 }, now, 60), "BR_0355", "issued in the future");
    checkJwtTimes({ iat: t + 30 }, now, 60);
  });

  it("rejects time claims that are not NumericDates", async () => {
    await expectCredkitError(() => checkJwtTimes({ exp: "tomorrow" }, now, 0), "BR_0355", "exp is not a NumericDate");
    await expectCredkitError(() => checkJwtTimes({ iat: null }, now, 0), "BR_0355", "iat is not a NumericDate");
  });
});

describe("numericDateOf", () => {
  it("rounds down to whole seconds", () => {
    expect(numericDateOf(new Date(1_700_000_000_999))).toBe(1_700_000_000);
  });
});
