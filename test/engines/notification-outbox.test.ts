/**
 * The notification outbox: a storage decorator that writes a notification row in the same transaction as the state
 * change of a credential or proof request with a webhookDestinationUrl. Runs on every storage adapter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credkit } from "../../src/credkit.js";
import type { Storage } from "../../src/ports/storage.js";
import {
  credentialRow,
  manualClock,
  notificationKit,
  notificationsOf,
  proofRow,
} from "../support/notification-fixture.js";
import { describeOnStorage, STORAGE_ADAPTERS, type StorageFixture } from "../support/storage-adapters.js";

const HOOK = "https://hooks.example/credkit";

for (const adapter of STORAGE_ADAPTERS) {
  describeOnStorage(adapter, `notification outbox: ${adapter.name}`, () => {
    let fixture: StorageFixture;
    let kit: Credkit;
    let storage: Storage;
    const clock = manualClock();

    beforeAll(async () => {
      fixture = await adapter.open();
      kit = await notificationKit({ storage: fixture.storage, clock });
      storage = kit.storage;
    });
    afterAll(async () => {
      await kit?.close();
      await fixture?.dispose();
    });

    it("writes one notification with the spec §6.1 body when a credential enters an emitting state", async () => {
      for (const state of ["ACCEPTED", "SUSPENDED", "REVOKED", "ERROR", "REJECTED"] as const) {
        const credential = credentialRow({ webhookDestinationUrl: HOOK, state: "OFFERED" });
        await storage.credentials.insert(credential);
        expect(await storage.credentials.update(credential.id, { state, lastModified: clock.now() })).toBe(true);
        const [notification, ...others] = await notificationsOf(storage, credential.id);
        expect(others).toEqual([]);
        expect(notification).toMatchObject({
          organisationId: credential.organisationId,
          entityType: "CREDENTIAL",
          entityId: credential.id,
          status: state,
          destination: HOOK,
          taskName: "WEBHOOK_NOTIFY",
          state: "PENDING",
          attempts: 0,
          body: { credentialId: credential.id, status: state, eventTimestamp: clock.now().toISOString() },
        });
        expect(notification!.body).not.toHaveProperty("proofId");
        expect(notification!.nextAttemptAt).toEqual(clock.now());
      }
    });

    it("writes one for proof requests entering ACCEPTED, REJECTED or ERROR, with proofId", async () => {
      for (const state of ["ACCEPTED", "REJECTED", "ERROR"] as const) {
        const proof = proofRow({ webhookDestinationUrl: HOOK });
        await storage.proofs.insert(proof);
        await storage.proofs.update(proof.id, { state }, { where: { op: "eq", column: "state", value: "PENDING" } });
        const notifications = await notificationsOf(storage, proof.id);
        expect(notifications.map((n) => n.body)).toEqual([
          { proofId: proof.id, status: state, eventTimestamp: clock.now().toISOString() },
        ]);
        expect(notifications[0]!.entityType).toBe("PROOF");
      }
    });

    it("writes nothing for other states, unchanged states, rows without destination or failed conditions", async () => {
      const credential = credentialRow({ webhookDestinationUrl: HOOK, state: "CREATED" });
      await storage.credentials.insert(credential);
      await storage.credentials.update(credential.id, { state: "PENDING" });
      await storage.credentials.update(credential.id, { state: "OFFERED" });
      expect(await notificationsOf(storage, credential.id)).toEqual([]);
      // a conditional update whose condition fails changes nothing and notifies nothing
      expect(
        await storage.credentials.update(
          credential.id,
          { state: "ACCEPTED" },
          { where: { op: "eq", column: "state", value: "PENDING" } },
        ),
      ).toBe(false);
      expect(await notificationsOf(storage, credential.id)).toEqual([]);
      await storage.credentials.update(credential.id, { state: "ACCEPTED" });
      // ACCEPTED -> ACCEPTED (e.g. a refresh) is no state change
      await storage.credentials.update(credential.id, { state: "ACCEPTED", credentialBlob: "refreshed" });
      expect((await notificationsOf(storage, credential.id)).map((n) => n.status)).toEqual(["ACCEPTED"]);

      const silent = credentialRow();
      await storage.credentials.insert(silent);
      await storage.credentials.update(silent.id, { state: "REVOKED" });
      expect(await notificationsOf(storage, silent.id)).toEqual([]);

      const proof = proofRow({ webhookDestinationUrl: HOOK });
      await storage.proofs.insert(proof);
      await storage.proofs.update(proof.id, { state: "INTERACTION_EXPIRED" });
      expect(await notificationsOf(storage, proof.id)).toEqual([]);
    });

    it("answers conditional updates of rows without destination like the plain repository", async () => {
      const silent = credentialRow({ state: "OFFERED" });
      await storage.credentials.insert(silent);
      const onlyFrom = (state: string) => ({ where: { op: "eq", column: "state", value: state } as const });
      expect(await storage.credentials.update(silent.id, { state: "ACCEPTED" }, onlyFrom("PENDING"))).toBe(false);
      expect((await storage.credentials.get(silent.id))?.state).toBe("OFFERED");
      expect(await storage.credentials.update(silent.id, { state: "ACCEPTED" }, onlyFrom("OFFERED"))).toBe(true);
      expect((await storage.credentials.get(silent.id))?.state).toBe("ACCEPTED");
      // single use: the same transition a second time changes nothing
      expect(await storage.credentials.update(silent.id, { state: "ACCEPTED" }, onlyFrom("OFFERED"))).toBe(false);
      expect(await storage.credentials.update(credentialRow().id, { state: "ACCEPTED" })).toBe(false);
      expect(await notificationsOf(storage, silent.id)).toEqual([]);
    });

    it("commits the notification with the state change, or neither", async () => {
      const credential = credentialRow({ webhookDestinationUrl: HOOK, state: "OFFERED" });
      await storage.credentials.insert(credential);
      await expect(
        storage.transaction(async (tx) => {
          await tx.credentials.update(credential.id, { state: "ACCEPTED" });
          expect(await notificationsOf(tx, credential.id)).toHaveLength(1);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect((await storage.credentials.get(credential.id))!.state).toBe("OFFERED");
      expect(await notificationsOf(storage, credential.id)).toEqual([]);

      await storage.transaction(async (tx) => {
        await tx.credentials.update(credential.id, { state: "ACCEPTED" });
        await tx.transaction(async (inner) => inner.credentials.update(credential.id, { state: "SUSPENDED" }));
      });
      expect((await notificationsOf(storage, credential.id)).map((n) => n.status).sort()).toEqual([
        "ACCEPTED",
        "SUSPENDED",
      ]);
    });

    it("notifies on updateMany and on insert in an emitting state", async () => {
      const organisationId = credentialRow().organisationId;
      const hooked = [1, 2, 3].map(() =>
        credentialRow({ organisationId, webhookDestinationUrl: HOOK, state: "OFFERED" }),
      );
      const plain = credentialRow({ organisationId, state: "OFFERED" });
      for (const c of [...hooked, plain]) await storage.credentials.insert(c);
      const changed = await storage.credentials.updateMany(
        {
          op: "and",
          conditions: [
            { op: "eq", column: "organisationId", value: organisationId },
            { op: "eq", column: "state", value: "OFFERED" },
          ],
        },
        { state: "ERROR" },
      );
      expect(changed).toBe(4);
      for (const c of hooked) expect((await notificationsOf(storage, c.id)).map((n) => n.status)).toEqual(["ERROR"]);
      expect(await notificationsOf(storage, plain.id)).toEqual([]);
      expect((await storage.credentials.get(plain.id))!.state).toBe("ERROR");

      const inserted = proofRow({ webhookDestinationUrl: HOOK, state: "ACCEPTED" });
      await storage.proofs.insert(inserted);
      expect((await notificationsOf(storage, inserted.id)).map((n) => n.body.status)).toEqual(["ACCEPTED"]);
    });

    it("uses the protocol's webhookTask: none, none written", async () => {
      const other = await notificationKit({
        storage: fixture.storage,
        config: { issuanceProtocol: { OPENID4VCI_FINAL1: { params: { public: { webhookTask: null } } } } },
      });
      const credential = credentialRow({ webhookDestinationUrl: HOOK, state: "ACCEPTED" });
      await other.storage.credentials.insert(credential);
      expect(await notificationsOf(other.storage, credential.id)).toEqual([]);
      await other.storage.credentials.update(credential.id, { state: "REVOKED" });
      expect(await notificationsOf(other.storage, credential.id)).toEqual([]);
    });

    // two better-sqlite3 handles in one process cannot interleave transactions (a blocked writer blocks the event
    // loop that would commit the other), so SQLite runs this with one handle only
    it("reports a state change once under concurrent writers", async () => {
      const credential = credentialRow({ webhookDestinationUrl: HOOK, state: "OFFERED" });
      await storage.credentials.insert(credential);
      const second = adapter.name === "sqlite" ? storage : await fixture.openAnother();
      const secondKit = await notificationKit({ storage: second, clock });
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? storage : secondKit.storage).credentials.update(credential.id, { state: "REVOKED" }),
        ),
      );
      expect(results.filter(Boolean).length).toBeGreaterThanOrEqual(1);
      expect((await notificationsOf(storage, credential.id)).map((n) => n.status)).toEqual(["REVOKED"]);
      if (second !== fixture.storage) await secondKit.close();
    });
  });
}
