export { ERROR_CATALOGUE, type ErrorCode } from "./catalogue.js";
export { CredkitError, describeErrorCode, isCredkitError } from "./credkit-error.js";
