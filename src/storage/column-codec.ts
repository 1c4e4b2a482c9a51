import type { ColumnType } from "./table-spec.js";

/** Entity value -> stored value. `undefined` and `null` become NULL. */
export function encodeColumn(type: ColumnType, value: unknown): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case "boolean":
      return value ? 1 : 0;
    case "date":
      return value instanceof Date ? value.getTime() : new Date(value as string).getTime();
    case "json":
      return JSON.stringify(value);
    case "blob":
      return Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
    default:
      return value;
  }
}

/** Stored value -> entity value. NULL becomes `undefined` (optional fields are absent, never null). */
export function decodeColumn(type: ColumnType, value: unknown): unknown {
  if (value === null || value === undefined) return undefined;
  switch (type) {
    case "boolean":
      return value === true || value === 1 || value === "1" || value === 1n;
    case "date":
      return new Date(Number(value));
    case "json":
      return typeof value === "string" ? JSON.parse(value) : value;
    case "integer":
      return Number(value);
    case "blob":
      return value instanceof Uint8Array ? new Uint8Array(value.buffer, value.byteOffset, value.byteLength) : value;
    default:
      return value;
  }
}
